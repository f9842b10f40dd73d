// Package label runs a labelling session: people answer the preference
// queries a learner chooses, in a browser or from a script, and every answer
// is kept in a durable log and fed back to the learner.
//
// # The session in the paper's loop
//
// Algorithm 1 of the paper repeats: choose a context and two arms, observe
// the preference feedback y_t = 1[a_{t,1} ≻ a_{t,2}], add (c_t, a_{t,1},
// a_{t,2}, y_t) to the data set D_t and retrain. Here the oracle of that loop
// is a person:
//
//	choose (c, a1, a2)   Proposer.Propose           GET /api/next
//	observe y_t          a labeller's answer        POST /api/answer
//	D_t = D_{t-1} ∪ {…}  the answer log             Options.LogDir
//	retrain              Proposer.Observe
//	π(c) (eq. 8)         Proposer.Summary           GET /api/summary
//
// The session consumes two small interfaces, a Catalogue (what can be
// shown: contexts and their arms by identifier) and a Proposer (the learner
// side). PoolCatalogue and LearnerProposer (learner.go) connect a pool file
// (package internal/poolfile) and any learner of package algorithms: the
// learner selects among the pairs no labeller holds (algorithms.Offer), a
// Pender learner counts the queries shown but not yet answered in its
// uncertainty, and the summary is its policy with its scores and σ; this is
// what "nadb serve" runs, with DefaultLearner unless told otherwise. Table
// is a Catalogue in memory; RoundRobin is a deterministic fake Proposer for
// tests and examples.
//
// Several labellers can work at once. A query shown to a labeller is
// pending: it is passed to Propose in the exclude list, so every labeller
// sees a distinct duel (same context and unordered pair count as the same).
// A pending query expires after Options.LabellerTimeout and may then go to
// another labeller; an expired query that nobody took is still accepted.
// With Options.Budget, no more queries are shown than answers remain.
//
// No labeller is shown a duel they answered, tied or skipped before (the
// duels are in the exclude list too), unless Options.Recheck asks for
// consistency checks: that share of a labeller's queries shows one of their
// earlier strict answers again, sides swapped, chosen by the stream
// (Options.Seed, a hash of the labeller id). A recheck is logged with the
// line of the first answer (recheck), exported with recheck = 1, counted in
// the progress with whether it agreed, and never fed to the proposer.
//
// # What a labeller sees
//
// The page shows the context and two arms (or k, Options.Arms), the
// guidelines of Options.Instructions (open on a labeller's first visit), the
// labeller's and the session's progress (of the budget, when there is one)
// and a confirmation once an answer is on disk. It does not show the
// proposer's score and σ, which invite a labeller to agree with the model,
// unless Options.ShowScores (then it also links the summary). Keys, letters
// in either case: ← arm1 better, → arm2 better, t equally good, b both bad,
// s skip, u undo; with several arms, 1–9 choose the best (or rank, best
// first; the last rank is implied) and Backspace starts a ranking again. A
// key held down acts once: its repeats are ignored. When the shown query is
// no longer pending (the server restarted, or it expired and went to
// another labeller), the answer is refused and the page shows the next one.
//
// # Ties, both bad, skips and undo
//
// The learners model only strict answers (the Bradley–Terry likelihood of
// y ∈ {0, 1}), so a tie (y = ½), an answer "both bad" (y = ½, both_bad) and
// a skip are logged but never fed to the proposer; inventing a coin flip
// would add answers nobody gave. They are kept in the exported answers (ties
// and both bad) or the log (skips). Undo reverts the labeller's most recent
// answer or skip that is not yet undone (repeatedly, further back) and shows
// that query again; it is an appended event, the log is never rewritten.
// The undone query does not keep a place in the budget (Options.Budget): at
// the end of the budget the place an undo frees goes to whoever asks first,
// and the labeller who undid may get "budget reached" instead of the query.
//
// Undo takes constant time under the session's lock. A proposer cannot
// forget an answer, so a proposer that used the undone answer is rebuilt in
// the background (rebuild.go): a new proposer from the constructor given to
// New, fed every kept answer in log order — exactly what a restart does —
// and swapped in; until then the old one keeps serving, and the summary
// says how many undone answers it still holds. Replay feeds answers only: a
// proposer whose state also depends on its own Propose calls (random draws,
// a cursor) restarts those from scratch.
//
// # Several arms at once
//
// With Options.Arms = k > 2 (and a SetProposer: LearnerProposer and
// RoundRobin are), each query shows k arms of one context. The labeller
// chooses the best (best of k) or, with Options.Rank, ranks them (the API
// then refuses the best alone; an order of k − 1 positions implies the
// last, and without Options.Rank a ranking is accepted too). The answer is
// logged once (kind rank) and recorded as the strict duels it
// implies (Event.ImpliedPairs), which are what the proposer is fed and what
// the export holds: for the best of k, the best arm beat each other arm (k −
// 1 duels); for a ranking, each arm beat every arm ranked below it (k(k −
// 1)/2 duels). These duels are not independent answers, but Bradley–Terry
// learners treat them as if they were, as the rank-breaking of
// Plackett–Luce rankings into pairs does. "All bad" records no duel (it is
// exported as every pair with y = ½, both_bad). A labeller sees no set with
// a duel they have answered. The learner chooses the set: its own duel
// first, then each further arm among the duels that pair a shown arm with a
// new one.
//
// # The answer log
//
// The log is the file answers.jsonl in Options.LogDir, append-only, one
// JSON object per line (format version 2; version 1 logs, a subset, are
// read too):
//
//	{"v":2,"seq":1,"kind":"start","time":"…","epoch":1,"crc":"…"}
//	{"v":2,"seq":2,"kind":"answer","time":"…","id":"1-1","labeller":"ann","context":"u1","arm1":"red","arm2":"blue","c":0,"a1":0,"a2":2,"y":1,"crc":"…"}
//	{"v":2,"seq":3,"kind":"skip","time":"…","id":"1-2","labeller":"ann","context":"u2",…,"crc":"…"}
//	{"v":2,"seq":4,"kind":"undo","time":"…","labeller":"ann","undoes":3,"crc":"…"}
//	{"v":2,"seq":5,"kind":"answer",…,"y":0.5,"both_bad":true,"crc":"…"}
//	{"v":2,"seq":6,"kind":"answer",…,"arm1":"blue","arm2":"red",…,"y":0,"recheck":2,"crc":"…"}
//	{"v":2,"seq":7,"kind":"rank","time":"…","id":"1-6","labeller":"bob","context":"u3","c":2,"arms":["red","gold","blue"],"ai":[0,3,2],"order":[1,0,2],"crc":"…"}
//
// The fields:
//
//   - v is the format version, in every line; seq is the line number from 1.
//   - start is written each time a server opens the log; epoch counts the
//     starts, and query ids ("epoch-n") never repeat across restarts.
//   - answer and skip carry the query id, the labeller, the duel by
//     identifier (context, arm1, arm2) and by index (c, a1, a2), and for an
//     answer y: 1 when arm1 won, 0 when arm2 won, 0.5 for a tie or, with
//     both_bad, when neither arm is good; recheck names the line of the
//     labeller's first answer to the duel when it was shown again as a
//     consistency check.
//   - rank carries the query id, the labeller, the context, the arms shown
//     by identifier (arms) and index (ai) in the order shown, and order: the
//     position in arms of the best arm (best of k) or of every arm from best
//     to worst; empty with both_bad (every arm bad). The skip of a set
//     carries arms and ai instead of arm1, arm2, a1, a2.
//   - undo names the line of the answer, rank or skip it undoes.
//   - crc, always last, is the CRC-32C (Castagnoli) in hexadecimal of the
//     line's bytes up to `,"crc":` with a closing brace in its place.
//   - time is UTC in RFC 3339 with nanoseconds.
//
// Every answer, skip and undo is written and fsynced before the server
// replies 200; a reply of 200 means the event is on disk. A server holds an
// exclusive lock on the log (flock), so two servers never share one.
//
// On start the log is replayed: every line is checked (checksum, sequence,
// and its identifiers and indices against the catalogue, so a log of another
// pool is an error naming the line), and the kept strict answers are fed to
// a new proposer in order. A torn or corrupt last line (a crash during a
// write: no newline, a checksum mismatch, bytes that are not JSON) was never
// acknowledged; it is reported (Server.Repair and a warning naming the file
// and line), its bytes are appended to answers.jsonl.torn, and it is
// truncated off before anything is appended. A bad line anywhere else is an
// error naming the file and line, and the log is left untouched.
//
// Records, WriteAnswers and ExportLog (and GET /api/export) write the kept
// answers (ties, both bad and rechecks included, a rank as the duels it
// implies; skips and undone answers left out) as the answers CSV that the
// -answers option of the other commands reads, with its optional columns:
// context,arm1,arm2,y,labeller,both_bad,recheck. GET /api/export?scope=all
// (and ExportLog with prior records) writes Options.Prior, the answers the
// proposer was given before the session, first: every answer the learner
// was given. ExportLog refuses a folder without a log and, given the
// catalogue, a log of another one, as a start does.
//
// # The display file
//
// Options.DisplayFile is an optional CSV file context,arm,label[,image]
// (columns in any order, names ignoring case), read with the limits and
// checks of internal/csvtab (UTF-8 text, located errors). A row with an
// empty arm describes the context itself. Images are paths relative to the
// display file's folder, .png, .jpg, .jpeg, .gif or .webp. Contexts and arms
// without a row are shown by identifier.
//
// # HTTP API
//
// Pages: GET / (labelling; ?labeller=ID, else it asks) and GET /summary (the
// policy). JSON:
//
//	GET  /api/config            {show_scores, instructions, arms, rank, budget}
//	GET  /api/next?labeller=ID  200 {id, context, arm1, arm2, context_index,
//	                            arm1_index, arm2_index, context_label,
//	                            arm1_label, arm2_label, context_image,
//	                            arm1_image, arm2_image, set, rank, arms:
//	                            [{arm, index, label, image}], score, sigma,
//	                            expires, progress}; score and sigma are null
//	                            unless Options.ShowScores; asking again
//	                            returns the same pending query; 200 {done,
//	                            message, progress} when the budget is reached
//	                            or the proposer has no query for the
//	                            labeller; 503 (Retry-After) when every
//	                            remaining query is pending with others; 429
//	                            past a per-client limit
//	POST /api/answer {id, y[, both_bad]} (a duel) or {id, order | both_bad}
//	                            (several arms), optionally with labeller
//	                            (the page sends it): 200 {ok, seq,
//	                            repeated} once on disk; the same answer
//	                            again: 200, repeated, not logged twice; 409
//	                            answered differently, skipped, undone,
//	                            expired and given to another labeller, no
//	                            longer pending (issued before a restart, or
//	                            forgotten with its labeller), or shown to
//	                            another labeller than the one named: ask
//	                            for the next query; 404 an id never issued
//	POST /api/skip {id[, labeller]}  as /api/answer
//	POST /api/undo {labeller}   200 {ok, undone}; 409 nothing to undo
//	GET  /api/progress[?labeller=ID]  {answered, ties, both_bad, skipped,
//	                            undone, pending, budget, remaining, mine,
//	                            mine_skipped, rechecks, recheck_agree}
//	GET  /api/summary           {answered, learner: {used, prior, session,
//	                            stale, rebuilding, rebuilds, error},
//	                            contexts: [{context, index, label, policy,
//	                            policy_index, queries, arms: [{arm, index,
//	                            label, score, sigma}]}]}; learner.used counts
//	                            every strict duel outcome the proposer was
//	                            fed, prior of them before the session
//	GET  /api/export[?scope=all]  the answers CSV
//	GET  /image/{c}/{a|context} an image of the display file
//
// Scores and uncertainties the proposer lacks (NaN) are null. Bad input is
// 400 with {error, field} naming the field (or "body", for a body that is
// not one JSON object); a Content-Type other than application/json (its
// parameters, such as charset, are ignored) 415, a body over 4 KiB 413, a
// wrong method 405. Every error of /api/ is such a JSON object, the 401 of
// a missing token, the 403 of a cross-origin request and the 421 of a
// Host that is not loopback included.
//
// # Safety rules
//
//   - The server listens on loopback (127.0.0.1:8080) by default and refuses
//     any other address without Options.Token.
//   - With a token, every page, image and API call needs it, as
//     "Authorization: Bearer TOKEN" (the scheme in any case) or
//     ?token=TOKEN, compared in constant time; only the files under
//     /static/ (the pages' scripts, style and HTML, which hold no data) are
//     public.
//   - Without a token, requests must name a loopback Host (no DNS
//     rebinding). Cross-origin POSTs are refused (http.CrossOriginProtection),
//     and so is a cross-origin GET or HEAD /api/next, which reserves a query
//     (403; a page of another site could send it with an image tag); POST
//     bodies must be application/json.
//   - Labeller ids name people; they are no credentials. Whoever may use
//     the server (anyone on loopback, or anyone with the token, which every
//     labeller of a session shares) can ask for, answer, skip and undo under
//     any labeller id, so the labellers of one session are trusted not to
//     act for each other. The page names its labeller in answers and skips,
//     and the server refuses an answer to another labeller's query, which
//     catches mistakes (a stale page, a script's wrong id), not forgeries.
//   - One client (an IPv4 address, an IPv6 /64, or all of loopback) may
//     hold at most Options.ClientReservations queries at once and introduce
//     at most Options.NewLabellersPerHour labeller ids an hour (429 beyond;
//     limits.go; an id counts once it is shown a query, so a refused
//     request uses none), and labellers that never answered are forgotten
//     once their query has long expired, so made-up labeller ids can neither
//     reserve every duel nor fill the memory.
//   - The pages build the DOM with textContent only (no innerHTML), and a
//     Content-Security-Policy allows only the server's own scripts.
//   - Images are served by index, never by a path from the request, through
//     an os.Root of the display file's folder: absolute paths, "..", and
//     symbolic links leaving the folder are rejected when the display file
//     is read and again when an image is opened.
//   - The http.Server has header, read, write and idle timeouts; the request
//     line and headers are limited to 16 KiB (http.Server.MaxHeaderBytes,
//     beyond which net/http reads up to 4 KiB more before it answers 431),
//     and request bodies to 4 KiB.
package label
