// Package prefix is the serving model's prefix cache: a least-recently-used
// cache of KV blocks of shared prompt prefixes, with a fixed capacity in
// blocks. It imports nothing of the engine. It allocates as it grows: its
// entries and their table start small and double, up to what its most
// segments at once need (never more than one per block), so a short run
// does not pay for a cache sized to its capacity.
//
// A prompt's prefix is a chain of segments — a shared system prompt, then a
// session's earlier turns — and a segment's blocks are its first, second, …
// block. A request uses (touches) the leading blocks of every segment of its
// chain, and recency is per block as in vLLM's block LRU, with the blocks of
// one touch ordered so that a chain's later blocks are the older ones (vLLM
// frees a request's blocks tail first for the same reason). Then the blocks
// of a segment present in the cache are always its leading ones, so the
// cache keeps one entry per segment — its key, how many leading blocks are
// present, and its place in the recency order — and evicting a block takes
// the last block of the least recently used segment. That is exactly a
// per-block LRU under this access pattern, at a cost per operation that does
// not grow with the length of a prefix.
package prefix

// Segment is a run of a chain: the leading Blocks blocks of the segment
// named Key (Key 0: no segment).
type Segment struct {
	Key    uint64
	Blocks int
}

// Chain is a prompt's prefix: up to two segments, in prompt order (a group's
// system prompt, then a session's earlier turns).
type Chain [2]Segment

// Blocks is the number of blocks of the chain.
func (c Chain) Blocks() int { return c[0].Blocks + c[1].Blocks }

// Cache is an LRU cache of prefix blocks. The zero value holds nothing and
// is full (capacity zero).
type Cache struct {
	capacity int
	used     int
	entries  []entry // entries[0] is the list's sentinel
	freeList []int32 // entries removed, for reuse before any is added
	table    []int32 // open addressing over entries, linear probing; 0 is empty; at most half full
	mask     uint64
	live     int // entries in the table
}

type entry struct {
	key        uint64
	blocks     int
	prev, next int32 // recency list through the sentinel: next is older
}

// New returns an empty cache of capacity blocks (capacity >= 0).
func New(capacity int) *Cache {
	const size = 16
	return &Cache{capacity: capacity, entries: make([]entry, 1, size/2), table: make([]int32, size), mask: size - 1}
}

// Capacity is the cache's size in blocks.
func (c *Cache) Capacity() int { return c.capacity }

// Used is the number of blocks the cache holds.
func (c *Cache) Used() int { return c.used }

// Present is the number of leading blocks of segment key in the cache.
func (c *Cache) Present(key uint64) int {
	if i := c.find(key); i != 0 {
		return c.entries[i].blocks
	}
	return 0
}

// Match is the number of leading blocks of the chain in the cache: a later
// segment counts only when every block of the earlier ones is present.
func (c *Cache) Match(ch Chain) int {
	n := 0
	for _, s := range ch {
		if s.Key == 0 || s.Blocks == 0 {
			continue
		}
		p := min(c.Present(s.Key), s.Blocks)
		n += p
		if p < s.Blocks {
			break
		}
	}
	return n
}

// Touch makes the chain's blocks the most recently used, inserting the ones
// missing and evicting least recently used blocks of other segments to make
// room. When the chain is longer than the whole cache, its leading blocks
// are kept. The chain's earlier segments end up more recent than its later
// ones, its blocks' order within a touch. A segment holding more blocks than
// the chain asks for keeps them, all refreshed: exact when every touch of a
// segment covers its cached blocks, as the serving workloads' do.
func (c *Cache) Touch(ch Chain) {
	var target [2]int
	room := c.capacity
	for i, s := range ch {
		if s.Key != 0 {
			target[i] = min(max(c.Present(s.Key), s.Blocks), room)
			room -= target[i]
		}
	}
	for i := len(ch) - 1; i >= 0; i-- { // the later segment first, so the earlier one ends up more recent
		if s := ch[i]; s.Key != 0 && target[i] > 0 {
			c.moveToFront(c.findOrAdd(s.Key))
		}
	}
	for pass := range 2 { // shrink first (only when the chain outgrows the cache), then grow
		for i, s := range ch {
			if s.Key != 0 {
				c.resize(s.Key, target[i], pass == 0)
			}
		}
	}
}

// resize gives segment key exactly n blocks: in the shrinking pass only if
// it has more, in the growing pass only if it has fewer, evicting other
// segments' least recently used blocks for room. Touch has moved the chain
// to the front and asks for no more than the cache holds, so the blocks
// evicted are never the chain's own.
func (c *Cache) resize(key uint64, n int, shrinking bool) {
	e := c.find(key)
	if e == 0 {
		return
	}
	delta := n - c.entries[e].blocks
	if (shrinking && delta >= 0) || (!shrinking && delta <= 0) {
		return
	}
	if delta > 0 {
		c.evict(delta - (c.capacity - c.used))
	}
	c.entries[e].blocks += delta
	c.used += delta
	if c.entries[e].blocks == 0 {
		c.remove(e)
	}
}

// evict frees n blocks (nothing when n <= 0), the least recently used
// first.
func (c *Cache) evict(n int) {
	for n > 0 {
		e := c.entries[0].prev // the least recently used
		if e == 0 {
			panic("prefix: evicting from an empty cache")
		}
		take := min(n, c.entries[e].blocks)
		c.entries[e].blocks -= take
		c.used -= take
		n -= take
		if c.entries[e].blocks == 0 {
			c.remove(e)
		}
	}
}

// findOrAdd returns key's entry, adding an empty one at the front if absent.
func (c *Cache) findOrAdd(key uint64) int32 {
	if e := c.find(key); e != 0 {
		return e
	}
	if 2*(c.live+1) > len(c.table) {
		c.grow()
	}
	var e int32
	if n := len(c.freeList); n > 0 {
		e = c.freeList[n-1]
		c.freeList = c.freeList[:n-1]
	} else {
		e = int32(len(c.entries))
		c.entries = append(c.entries, entry{})
	}
	c.entries[e] = entry{key: key}
	c.link(e)
	c.put(key, e)
	c.live++
	return e
}

// grow doubles the table and puts every entry back in it.
func (c *Cache) grow() {
	c.table = make([]int32, 2*len(c.table))
	c.mask = uint64(len(c.table) - 1)
	for e := 1; e < len(c.entries); e++ {
		if k := c.entries[e].key; k != 0 {
			c.put(k, int32(e))
		}
	}
}

func (c *Cache) remove(e int32) {
	c.unlink(e)
	c.del(c.entries[e].key)
	c.entries[e] = entry{}
	c.freeList = append(c.freeList, e)
	c.live--
}

func (c *Cache) moveToFront(e int32) {
	c.unlink(e)
	c.link(e)
}

// link puts e at the front of the recency list.
func (c *Cache) link(e int32) {
	first := c.entries[0].next
	c.entries[e].prev, c.entries[e].next = 0, first
	c.entries[first].prev = e
	c.entries[0].next = e
}

func (c *Cache) unlink(e int32) {
	p, n := c.entries[e].prev, c.entries[e].next
	c.entries[p].next = n
	c.entries[n].prev = p
}

// slot is where key's probe sequence starts (Fibonacci hashing).
func (c *Cache) slot(key uint64) uint64 { return (key * 0x9e3779b97f4a7c15) >> 32 & c.mask }

func (c *Cache) find(key uint64) int32 {
	for i := c.slot(key); ; i = (i + 1) & c.mask {
		e := c.table[i]
		if e == 0 || c.entries[e].key == key {
			return e
		}
	}
}

func (c *Cache) put(key uint64, e int32) {
	i := c.slot(key)
	for c.table[i] != 0 {
		i = (i + 1) & c.mask
	}
	c.table[i] = e
}

// del removes key from the table by backward-shift deletion, so probe
// sequences stay unbroken without tombstones.
func (c *Cache) del(key uint64) {
	i := c.slot(key)
	for c.entries[c.table[i]].key != key {
		i = (i + 1) & c.mask
	}
	for j := (i + 1) & c.mask; c.table[j] != 0; j = (j + 1) & c.mask {
		home := c.slot(c.entries[c.table[j]].key)
		// The entry at j may move to i if i lies on its probe path, i.e.
		// cyclically in [home, j).
		if (j-home)&c.mask >= (j-i)&c.mask {
			c.table[i] = c.table[j]
			i = j
		}
	}
	c.table[i] = 0
}
