package engine

// waitQueue holds a batching server's waiting requests: one ring per
// priority class (one class with FIFO ordering), each in arrival order but
// for preempted requests, which go back to the front of their class (as in
// vLLM). Rings grow only when preemptions overfill them.
type waitQueue struct {
	rings   [3]deque // critical, standard, sheddable
	byClass bool
	n       int
	prompts int // prompt tokens of the waiting requests
}

// waiting is a request in the queue: fresh, or preempted with its progress
// kept in the server's table of paused requests.
type waiting struct {
	req    request
	paused int32 // index of its progress in batchServer.paused; -1 when fresh
}

func newWaitQueue(capacity int, byClass bool) waitQueue {
	q := waitQueue{byClass: byClass}
	for i := range q.rings {
		if byClass || i == 1 {
			q.rings[i] = deque{buf: make([]waiting, max(capacity, 1))}
		}
	}
	return q
}

// ring is the deque of a request's class.
func (q *waitQueue) ring(r *request) *deque {
	if !q.byClass {
		return &q.rings[1]
	}
	return &q.rings[1-int(r.priority)]
}

func (q *waitQueue) len() int { return q.n }

func (q *waitQueue) push(w waiting) {
	q.ring(&w.req).pushBack(w)
	q.n++
	q.prompts += int(w.req.prompt)
}

// pushFront returns a preempted request to the front of its class.
func (q *waitQueue) pushFront(w waiting) {
	q.ring(&w.req).pushFront(w)
	q.n++
	q.prompts += int(w.req.prompt)
}

// head is the request admission considers next: the first of the highest
// class.
func (q *waitQueue) head() *waiting {
	for i := range q.rings {
		if r := &q.rings[i]; r.n > 0 {
			return r.at(0)
		}
	}
	return nil
}

func (q *waitQueue) pop() waiting {
	for i := range q.rings {
		if r := &q.rings[i]; r.n > 0 {
			w := r.popFront()
			q.n--
			q.prompts -= int(w.req.prompt)
			return w
		}
	}
	panic("engine: pop from an empty wait queue")
}

// each visits the waiting requests in admission order.
func (q *waitQueue) each(visit func(*waiting)) {
	for i := range q.rings {
		r := &q.rings[i]
		for j := 0; j < r.n; j++ {
			visit(r.at(j))
		}
	}
}

// deque is a growable ring buffer of waiting requests.
type deque struct {
	buf     []waiting
	head, n int
}

func (d *deque) at(i int) *waiting { return &d.buf[(d.head+i)%len(d.buf)] }

func (d *deque) grow() {
	if d.n < len(d.buf) {
		return
	}
	buf := make([]waiting, 2*len(d.buf))
	for i := range d.n {
		buf[i] = *d.at(i)
	}
	d.buf, d.head = buf, 0
}

func (d *deque) pushBack(w waiting) {
	d.grow()
	*d.at(d.n) = w
	d.n++
}

func (d *deque) pushFront(w waiting) {
	d.grow()
	d.head = (d.head - 1 + len(d.buf)) % len(d.buf)
	d.buf[d.head] = w
	d.n++
}

func (d *deque) popFront() waiting {
	w := d.buf[d.head]
	d.head = (d.head + 1) % len(d.buf)
	d.n--
	return w
}
