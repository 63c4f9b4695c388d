package kernel

import (
	"encoding/binary"
	"testing"
)

func TestFrameGuardFollowsFramesInAnyChunking(t *testing.T) {
	stream := appendFrames(nil, [][]byte{[]byte("a"), make([]byte, 300), {}, make([]byte, 255)})
	big := append([]byte{0x02}, binary.BigEndian.AppendUint64(nil, maxFrame+1)...)
	for chunk := 1; chunk <= len(stream); chunk++ {
		g := frameGuard{on: true}
		for i := 0; i < len(stream); i += chunk {
			if err := g.scan(stream[i:min(i+chunk, len(stream))]); err != nil {
				t.Fatalf("chunk %d: %v", chunk, err)
			}
		}
		if g.state != 0 {
			t.Fatalf("chunk %d: guard ended in state %d, not at a frame boundary", chunk, g.state)
		}
		var err error
		for i := 0; i < len(big) && err == nil; i += chunk {
			err = g.scan(big[i:min(i+chunk, len(big))])
		}
		if err == nil {
			t.Fatalf("chunk %d: a %d-byte frame passed", chunk, uint64(maxFrame+1))
		}
	}
	ok := frameGuard{on: true}
	if err := ok.scan(append([]byte{0x02}, binary.BigEndian.AppendUint64(nil, maxFrame)...)); err != nil {
		t.Errorf("a frame of exactly maxFrame bytes was refused: %v", err)
	}
}
