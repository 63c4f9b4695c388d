package symbols

import (
	_ "embed"
	"reflect"
	"sync"
	"sync/atomic"

	"github.com/routelab/routelab/dsl"
	"github.com/routelab/routelab/engine"
	"github.com/routelab/routelab/lab"
	"github.com/routelab/routelab/plot"
)

//go:generate go run github.com/routelab/routelab/dsl/cmd/dslextract github.com/routelab/routelab/lab github.com/routelab/routelab/engine github.com/routelab/routelab/experiment github.com/routelab/routelab/plot
//go:generate go run github.com/routelab/routelab/dsl/cmd/dslextract github.com/go-echarts/go-echarts/v2/charts github.com/go-echarts/go-echarts/v2/opts github.com/go-echarts/go-echarts/v2/types
//go:generate go run github.com/routelab/routelab/dsl/cmd/dsltypes -o types.bin github.com/routelab/routelab/lab github.com/routelab/routelab/engine github.com/routelab/routelab/experiment github.com/routelab/routelab/plot github.com/go-echarts/go-echarts/v2/charts github.com/go-echarts/go-echarts/v2/opts github.com/go-echarts/go-echarts/v2/types
//go:generate go run github.com/routelab/routelab/dsl/cmd/dsldoc -o lab_docs.go -func LabDocs github.com/routelab/routelab/lab
//go:generate go run github.com/routelab/routelab/dsl/cmd/dsldoc -o engine_docs.go -func EngineDocs github.com/routelab/routelab/engine
//go:generate go run github.com/routelab/routelab/dsl/cmd/dsldoc -o experiment_docs.go -func ExperimentDocs github.com/routelab/routelab/experiment
//go:generate go run github.com/routelab/routelab/dsl/cmd/dsldoc -o plot_docs.go -func PlotDocs github.com/routelab/routelab/plot

// typesBin is the exposed packages' type information, for Go's type
// checker in front of the interpreter.
//
//go:embed types.bin
var typesBin []byte

// symbols is filled by the generated files (yaegi extract's layout), each
// of which registers its table with lazily.
var symbols = map[string]map[string]reflect.Value{}

// loaders are the generated files' tables, built by Symbols.
var loaders []func()

func lazily(load func()) struct{} {
	loaders = append(loaders, load)
	return struct{}{}
}

// Symbols returns the symbol tables of the exposed packages, built on the
// first call: a routelab process that opens no session (a shard, a merge)
// does not pay for them at its start.
var Symbols = sync.OnceValue(func() map[string]map[string]reflect.Value {
	for _, load := range loaders {
		load()
	}
	loaders = nil
	return symbols
})

// Import paths of the exposed packages.
const (
	LabPath    = "github.com/routelab/routelab/lab"
	EnginePath = "github.com/routelab/routelab/engine"
	// ExperimentPath is the experiment design: Compare, Sweep, Study, paired statistics.
	ExperimentPath = "github.com/routelab/routelab/experiment"
	PlotPath       = "github.com/routelab/routelab/plot"
	echarts        = "github.com/go-echarts/go-echarts/v2/"
)

// Libraries returns the libraries of a routelab session: lab pre-imported;
// engine, experiment, plot and go-echarts' charts, opts and types for custom figures
// (lab.Chart shows a go-echarts chart).
func Libraries() []dsl.Library { return libraries(nil) }

// libraries are the session's libraries, lab's scripted policies reported
// to onPolicy when it is set.
func libraries(onPolicy func(lab.PolicySpec)) []dsl.Library {
	libs := []dsl.Library{
		{Path: LabPath, Name: "lab", Symbols: Symbols()[LabPath+"/lab"], Docs: LabDocs(), Types: typesBin, PreImport: true, Bind: labBinder(onPolicy), Stateless: statelessLab()},
		{Path: EnginePath, Name: "engine", Symbols: Symbols()[EnginePath+"/engine"], Docs: EngineDocs(), Types: typesBin},
		{Path: ExperimentPath, Name: "experiment", Symbols: Symbols()[ExperimentPath+"/experiment"], Docs: ExperimentDocs(), Types: typesBin},
		{Path: PlotPath, Name: "plot", Symbols: Symbols()[PlotPath+"/plot"], Docs: PlotDocs(), Types: typesBin},
	}
	for _, name := range []string{"charts", "opts", "types"} {
		libs = append(libs, dsl.Library{Path: echarts + name, Name: name, Symbols: Symbols()[echarts+name+"/"+name], Types: typesBin})
	}
	return libs
}

// NewSession starts a dsl session with routelab's libraries added to opts.
func NewSession(opts dsl.Options) (*dsl.Session, error) { return NewPolicySession(opts, nil) }

// NewPolicySession is NewSession with every scripted policy the session's
// code makes (lab.Policy, lab.Picker, lab.Stateful) reported to onPolicy,
// in order: how routelab's commands learn the policies of a policy file.
// The policies call back into the session, which must stay open while
// they run.
func NewPolicySession(opts dsl.Options, onPolicy func(lab.PolicySpec)) (*dsl.Session, error) {
	opts.Libraries = append(libraries(onPolicy), opts.Libraries...)
	return dsl.New(opts)
}

// onePage is a session's answer to whether its page has the chart library:
// false for the first figure shown, which brings it, true after.
func onePage() func() bool {
	var shown atomic.Bool
	return func() bool { return shown.Swap(true) }
}

// statelessLab are lab's functions whose function argument every run of a
// comparison calls: state it keeps outside itself makes results depend on
// the order of parallel runs and on earlier ones.
func statelessLab() map[string]string {
	const advice = "keep state in lab.Stateful, which makes it afresh for every run"
	return map[string]string{"Policy": advice, "Picker": advice, "Score": advice}
}

// labBinder returns the Bind of lab: it replaces lab's package-level entry
// points with versions bound to the session. Their runs stop as soon as the
// cell is interrupted (before the interpreter is stopped), figures share
// one SVG renderer, scripted policies call back into cells through the
// session (serialised, with math/rand seeded by the run) and are reported
// to onPolicy, and live views display through the session (updating
// between cells, running to their end at once when headless) and end when
// it is interrupted.
func labBinder(onPolicy func(lab.PolicySpec)) func(h dsl.Host) map[string]reflect.Value {
	return func(h dsl.Host) map[string]reflect.Value {
		env := &lab.Env{
			Context:        h.Context,
			SVG:            plot.NewSVGRenderer(1),
			Callback:       func(rng *engine.Rand, call func()) { h.Callback(rng, call) },
			OnPolicy:       onPolicy,
			Display:        h.DisplayWithID,
			PageHasLibrary: onePage(),
			Headless:       h.Headless,
			Background:     h.Background,
			Status:         h.Status,
		}
		env.Widgets = lab.NewWidgets(lab.WidgetHost{Life: h.Context(), Comms: h.Comms, Aside: h.Aside, Output: h.CommOutput, Warn: h.Warn})
		h.HandleComms(env.Widgets)
		return map[string]reflect.Value{
			"Compare":  reflect.ValueOf(env.Compare),
			"Run":      reflect.ValueOf(env.Run),
			"Sweep":    reflect.ValueOf(env.Sweep),
			"Study":    reflect.ValueOf(env.Study),
			"Chart":    reflect.ValueOf(env.Chart),
			"Policy":   reflect.ValueOf(env.Policy),
			"Picker":   reflect.ValueOf(env.Picker),
			"Stateful": reflect.ValueOf(env.Stateful),
			"Score":    reflect.ValueOf(env.Score),
			"Live":     reflect.ValueOf(env.Live),
			// Widgets (widgets.go, controls.go, interact.go in lab).
			"Slider":    reflect.ValueOf(env.Slider),
			"IntSlider": reflect.ValueOf(env.IntSlider),
			"Dropdown":  reflect.ValueOf(env.Dropdown),
			"Toggle":    reflect.ValueOf(env.Toggle),
			"Text":      reflect.ValueOf(env.Text),
			"Button":    reflect.ValueOf(env.Button),
			"Interact":  reflect.ValueOf(env.Interact),
		}
	}
}
