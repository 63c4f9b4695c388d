package prefix

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// blockLRU is the reference: a plain LRU of individual blocks, most recent
// first, touched in vLLM's order (a chain's later blocks older).
type blockLRU struct {
	capacity int
	blocks   []block
}

type block struct {
	key   uint64
	index int
}

func (r *blockLRU) touch(ch Chain) {
	var seq []block
	for _, s := range ch {
		if s.Key != 0 {
			for i := range s.Blocks {
				seq = append(seq, block{s.Key, i})
			}
		}
	}
	for i := len(seq) - 1; i >= 0; i-- { // the chain's first block ends up the most recent
		r.blocks = slices.DeleteFunc(r.blocks, func(b block) bool { return b == seq[i] })
		r.blocks = slices.Insert(r.blocks, 0, seq[i])
	}
	if len(r.blocks) > r.capacity {
		r.blocks = r.blocks[:r.capacity]
	}
}

func (r *blockLRU) present(key uint64) int {
	n := 0
	for slices.Contains(r.blocks, block{key, n}) {
		n++
	}
	return n
}

func (r *blockLRU) match(ch Chain) int {
	n := 0
	for _, s := range ch {
		if s.Key == 0 || s.Blocks == 0 {
			continue
		}
		p := min(r.present(s.Key), s.Blocks)
		n += p
		if p < s.Blocks {
			break
		}
	}
	return n
}

// The segment cache is exactly a per-block LRU under the serving
// workloads' pattern: a group's chain always asks for its whole system
// prompt, a session's for at least what it asked before. Random operations
// on small caches (evictions inside segments, chains longer than the cache,
// capacity zero) agree on every segment's blocks and on matches.
func TestCacheIsABlockLRU(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := range 300 {
		capacity := rng.IntN(40)
		c, ref := New(capacity), &blockLRU{capacity: capacity}
		groupLen := []int{0, 3, 5, 8, 1}
		sessionLen := make([]int, 12)
		for op := range 400 {
			g := 1 + rng.IntN(4)
			ch := Chain{{Key: uint64(g), Blocks: groupLen[g]}}
			if s := rng.IntN(len(sessionLen)); s > 0 {
				sessionLen[s] += rng.IntN(4)
				ch[1] = Segment{Key: uint64(100 + s), Blocks: sessionLen[s]}
			}
			if got, want := c.Match(ch), ref.match(ch); got != want {
				t.Fatalf("trial %d op %d: Match(%v) = %d, the block LRU has %d", trial, op, ch, got, want)
			}
			c.Touch(ch)
			ref.touch(ch)
			if c.Used() != len(ref.blocks) || c.Used() > capacity {
				t.Fatalf("trial %d op %d: %d blocks used, the block LRU holds %d (capacity %d)", trial, op, c.Used(), len(ref.blocks), capacity)
			}
			for _, key := range []uint64{1, 2, 3, 4, 100, 101, 105, 111} {
				if got, want := c.Present(key), ref.present(key); got != want {
					t.Fatalf("trial %d op %d after %v: segment %d has %d blocks, the block LRU %d", trial, op, ch, key, got, want)
				}
			}
		}
	}
}

// Keys that collide in the table's probe sequences are found and deleted
// correctly (backward shifts across the table's end included).
func TestCacheTableSurvivesChurn(t *testing.T) {
	c := New(64)
	live := map[uint64]bool{}
	rng := rand.New(rand.NewPCG(3, 4))
	for range 200000 {
		key := uint64(1 + rng.IntN(500))
		c.Touch(Chain{{Key: key, Blocks: 1}})
		live[key] = true
		if len(live) > 64 {
			for k := range live {
				if c.Present(k) == 0 {
					delete(live, k)
				}
			}
		}
	}
	n := 0
	for k := range live {
		n += c.Present(k)
	}
	if n != 64 || c.Used() != 64 {
		t.Fatalf("%d blocks found through the table, %d used; want 64", n, c.Used())
	}
}

// In steady state a touch allocates nothing.
func TestTouchAllocatesNothing(t *testing.T) {
	c := New(100)
	i := uint64(0)
	allocs := testing.AllocsPerRun(1000, func() {
		i++
		c.Touch(Chain{{Key: 1 + i%37, Blocks: 4}, {Key: 1000 + i%91, Blocks: int(i % 7)}})
	})
	if allocs != 0 {
		t.Fatalf("%v allocations per touch", allocs)
	}
}
