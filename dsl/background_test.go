package dsl_test

import (
	"context"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/routelab/routelab/display"
	"github.com/routelab/routelab/dsl"
	"github.com/routelab/routelab/dsl/internal/testlibsym"
)

// hostSession is a session whose test library hands its Host to the test
// and, from testlib.Hello, records whether the running cell is headless.
func hostSession(t *testing.T) (*dsl.Session, *dsl.Host, *atomic.Int32) {
	t.Helper()
	var host dsl.Host
	var headless atomic.Int32 // 0 not asked, 1 watched, 2 headless
	lib := testlibsym.Library(true)
	lib.Bind = func(h dsl.Host) map[string]reflect.Value {
		host = h
		m := testlibsym.Bind(h)
		m["Hello"] = reflect.ValueOf(func(string) {
			headless.Store(1)
			if h.Headless() {
				headless.Store(2)
			}
		})
		return m
	}
	s, err := dsl.New(dsl.Options{Libraries: []dsl.Library{lib}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s, &host, &headless
}

type headlessRecorder struct{ recorder }

func (*headlessRecorder) Headless() bool { return true }

// A cell is headless exactly when its sink says so; scripts always are.
func TestHostHeadlessFollowsTheSink(t *testing.T) {
	s, host, headless := hostSession(t)
	for _, c := range []struct {
		sink display.Sink
		want int32
	}{{&recorder{}, 1}, {&headlessRecorder{}, 2}} {
		headless.Store(0)
		if _, err := s.Execute(context.Background(), `testlib.Hello("x")`, c.sink); err != nil || headless.Load() != c.want {
			t.Errorf("sink %T: headless %d (err %v), want %d", c.sink, headless.Load(), err, c.want)
		}
	}
	headless.Store(0)
	var out, errs strings.Builder
	if err := s.RunScript(context.Background(), `testlib.Hello("x")`, &out, &errs); err != nil || headless.Load() != 2 {
		t.Errorf("a script: headless %d (err %v), want headless", headless.Load(), err)
	}
	if (*host).Headless() {
		t.Error("outside a cell, Headless is true")
	}
}

// Background work ends at the next interrupt, whether or not a cell runs,
// and later work gets a fresh context; Close ends it and waits for it.
func TestBackgroundWorkEndsAtInterruptAndClose(t *testing.T) {
	s, host, _ := hostSession(t)
	ctx, done := (*host).Background()
	s.Interrupt() // no cell runs
	select {
	case <-ctx.Done():
	case <-time.After(time.Second):
		t.Fatal("an interrupt between cells did not end background work")
	}
	done()
	done() // a second call changes nothing

	ctx2, done2 := (*host).Background()
	if ctx2.Err() != nil {
		t.Fatal("work started after an interrupt is already ended")
	}
	var ended atomic.Bool
	go func() {
		<-ctx2.Done()
		time.Sleep(50 * time.Millisecond) // the work winds down
		ended.Store(true)
		done2()
	}()
	s.Close()
	if !ended.Load() {
		t.Error("Close returned before the background work had ended")
	}
}

// An interrupted cell's interpreter is stopped only once background work,
// which may call back into cells, has ended.
func TestInterruptWaitsForBackgroundWork(t *testing.T) {
	s, host, _ := hostSession(t)
	ctx, done := (*host).Background()
	var endedAt atomic.Int64
	go func() {
		<-ctx.Done()
		time.Sleep(60 * time.Millisecond)
		endedAt.Store(time.Now().UnixNano())
		done()
	}()
	time.AfterFunc(50*time.Millisecond, s.Interrupt)
	_, err := s.Execute(context.Background(), "for {}", &recorder{})
	stopped := time.Now().UnixNano()
	if err == nil {
		t.Fatal("an endless loop was not interrupted")
	}
	if e := endedAt.Load(); e == 0 || e > stopped {
		t.Errorf("the interpreter stopped before the background work ended")
	}
}
