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
// what "nadb serve" runs. Table is a Catalogue in memory; RoundRobin is a
// deterministic fake Proposer for tests and examples.
//
// Several labellers can work at once. A query shown to a labeller is
// pending: it is passed to Propose in the exclude list, so every labeller
// sees a distinct duel (same context and unordered pair count as the same).
// A pending query expires after Options.LabellerTimeout and may then go to
// another labeller; an expired query that nobody took is still accepted.
// With Options.Budget, no more queries are shown than answers remain.
//
// # Ties, skips and undo
//
// The learners model only strict answers (the Bradley–Terry likelihood of
// y ∈ {0, 1}), so a tie (y = ½) and a skip are logged but never fed to the
// proposer; inventing a coin flip would add answers nobody gave. Both are
// kept in the exported answers (ties) or the log (skips), and the tied or
// skipped duel is never proposed to that labeller again. Undo reverts the
// labeller's most recent answer or skip that is not yet undone (repeatedly,
// further back) and shows that duel again; it is an appended event, the log
// is never rewritten. A proposer cannot forget an answer, so undoing a strict
// answer rebuilds it: a new proposer from the constructor given to New, fed
// every kept strict answer in log order — exactly what a restart does.
// Replay feeds answers only: a proposer whose state also depends on its own
// Propose calls (random draws, a cursor) restarts those from scratch.
//
// # The answer log
//
// The log is the file answers.jsonl in Options.LogDir, append-only, one
// JSON object per line (format version 1):
//
//	{"v":1,"seq":1,"kind":"start","time":"…","epoch":1,"crc":"…"}
//	{"v":1,"seq":2,"kind":"answer","time":"…","id":"1-1","labeller":"ann","context":"u1","arm1":"red","arm2":"blue","c":0,"a1":0,"a2":2,"y":1,"crc":"…"}
//	{"v":1,"seq":3,"kind":"skip","time":"…","id":"1-2","labeller":"ann","context":"u2",…,"crc":"…"}
//	{"v":1,"seq":4,"kind":"undo","time":"…","labeller":"ann","undoes":3,"crc":"…"}
//
// The fields:
//
//   - v is the format version, in every line; seq is the line number from 1.
//   - start is written each time a server opens the log; epoch counts the
//     starts, and query ids ("epoch-n") never repeat across restarts.
//   - answer and skip carry the query id, the labeller, the duel by
//     identifier (context, arm1, arm2) and by index (c, a1, a2), and for an
//     answer y: 1 when arm1 won, 0 when arm2 won, 0.5 for a tie.
//   - undo names the line of the answer or skip it undoes.
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
// WriteAnswers and ExportLog (and GET /api/export) write the kept answers,
// ties included, skips and undone answers left out, as the answers CSV that
// the -answers option of the other commands reads: context,arm1,arm2,y.
//
// # The display file
//
// Options.DisplayFile is an optional CSV file context,arm,label[,image]
// (columns in any order, names ignoring case). A row with an empty arm
// describes the context itself. Images are paths relative to the display
// file's folder, .png, .jpg, .jpeg, .gif or .webp. Contexts and arms without
// a row are shown by identifier.
//
// # HTTP API
//
// Pages: GET / (labelling; ?labeller=ID, else it asks) and GET /summary (the
// policy). Keys: ← arm1 better, → arm2 better, t tie, s skip, u undo. JSON:
//
//	GET  /api/next?labeller=ID  200 {id, context, arm1, arm2, context_index,
//	                            arm1_index, arm2_index, context_label,
//	                            arm1_label, arm2_label, context_image,
//	                            arm1_image, arm2_image, score, sigma, expires,
//	                            progress}; asking again returns the same
//	                            pending query; 200 {done, message, progress}
//	                            when the budget is reached or the proposer has
//	                            no query; 503 (Retry-After) when every
//	                            remaining query is pending with others
//	POST /api/answer {id, y}    200 {ok, seq, repeated} once on disk; the same
//	                            answer again: 200, repeated, not logged twice;
//	                            404 unknown id; 409 answered differently,
//	                            skipped, undone, or expired and given to
//	                            another labeller
//	POST /api/skip {id}         as /api/answer
//	POST /api/undo {labeller}   200 {ok, undone}; 409 nothing to undo
//	GET  /api/progress[?labeller=ID]  {answered, ties, skipped, undone,
//	                            pending, budget, remaining, mine}
//	GET  /api/summary           {answered, contexts: [{context, index, label,
//	                            policy, policy_index, queries, arms: [{arm,
//	                            index, label, score, sigma}]}]}
//	GET  /api/export            the answers CSV
//	GET  /image/{c}/{a|context} an image of the display file
//
// Scores and uncertainties the proposer lacks (NaN) are null. Bad input is
// 400 with {error, field} naming the field (or "body"); a non-JSON body 415,
// a body over 4 KiB 413, a wrong method 405.
//
// # Safety rules
//
//   - The server listens on loopback (127.0.0.1:8080) by default and refuses
//     any other address without Options.Token.
//   - With a token, every page, image and API call needs it, as
//     "Authorization: Bearer TOKEN" or ?token=TOKEN, compared in constant
//     time; only the static script and style files are public.
//   - Without a token, requests must name a loopback Host (no DNS
//     rebinding), and cross-site POSTs are refused
//     (http.CrossOriginProtection); POST bodies must be application/json.
//   - The pages build the DOM with textContent only (no innerHTML), and a
//     Content-Security-Policy allows only the server's own scripts.
//   - Images are served by index, never by a path from the request, through
//     an os.Root of the display file's folder: absolute paths, "..", and
//     symbolic links leaving the folder are rejected when the display file
//     is read and again when an image is opened.
//   - The http.Server has header, read, write and idle timeouts, headers are
//     limited to 16 KiB and request bodies to 4 KiB.
package label
