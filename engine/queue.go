package engine

// fifo is a fixed-capacity ring buffer of requests: a replica's waiting queue.
// Requests are stored by value, so queueing allocates nothing.
type fifo struct {
	buf  []request
	head int
	n    int
}

func (q *fifo) len() int { return q.n }

func (q *fifo) push(r request) {
	q.buf[(q.head+q.n)%len(q.buf)] = r
	q.n++
}

func (q *fifo) pop() request {
	r := q.buf[q.head]
	q.head = (q.head + 1) % len(q.buf)
	q.n--
	return r
}

// at returns the i-th waiting request (0 = head).
func (q *fifo) at(i int) request { return q.buf[(q.head+i)%len(q.buf)] }
