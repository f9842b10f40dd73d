package label

import (
	"net/http"
	"time"
)

// Per-client limits. A client is the address a request comes from: an IPv4
// address, an IPv6 /64 network, or the loopback interface as a whole
// (clientOf; behind a proxy, every labeller is one client: raise the
// limits). They stop one
// client from reserving every duel, or from filling the labeller table,
// with made-up labeller ids; the defaults are far beyond what one person
// (or a classroom behind one address) uses.
const (
	// DefaultClientReservations is the default of
	// Options.ClientReservations.
	DefaultClientReservations = 32
	// DefaultNewLabellersPerHour is the default of
	// Options.NewLabellersPerHour.
	DefaultNewLabellersPerHour = 64
)

// client is what the session remembers of a client address.
type client struct {
	newIDs []time.Time // when it introduced new labeller ids, within the last hour
}

// admit lets client addr introduce a new labeller id, or refuses with 429
// when it introduced Options.NewLabellersPerHour of them in the last hour;
// record counts the new id (once the labeller is made).
func (s *session) admit(addr string, now time.Time, record bool) error {
	limit := s.opt.NewLabellersPerHour
	if limit < 0 {
		return nil
	}
	for k, c := range s.clients { // forget clients idle for an hour
		if len(c.newIDs) > 0 && now.Sub(c.newIDs[len(c.newIDs)-1]) > time.Hour {
			delete(s.clients, k)
		}
	}
	c := s.clients[addr]
	if c == nil {
		c = &client{}
		s.clients[addr] = c
	}
	i := 0
	for i < len(c.newIDs) && now.Sub(c.newIDs[i]) > time.Hour {
		i++
	}
	c.newIDs = c.newIDs[i:]
	if len(c.newIDs) >= limit {
		return errorf(http.StatusTooManyRequests, "labeller", "the client %s introduced %d new labeller ids in the last hour, the limit: use a labeller id you used before, or try again later", addr, limit)
	}
	if record {
		c.newIDs = append(c.newIDs, now)
	}
	return nil
}

// reserve refuses with 429 a new query for client addr when its labellers
// already hold Options.ClientReservations of the active queries.
func (s *session) reserve(addr string, active []*ticket) error {
	limit := s.opt.ClientReservations
	if limit < 0 {
		return nil
	}
	n := 0
	for _, t := range active {
		if l := s.labellers[t.labeller]; l != nil && l.client == addr {
			n++
		}
	}
	if n >= limit {
		return errorf(http.StatusTooManyRequests, "labeller", "the labellers of client %s hold %d queries, the limit: answer or skip them, or wait until they expire", addr, n)
	}
	return nil
}
