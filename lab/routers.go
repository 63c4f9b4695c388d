package lab

import "github.com/routelab/routelab/engine"

// The production routers of LLM serving (docs/routers.md gives each one's
// rule, signals, source and what routelab simplifies). On the
// specification's model each falls back as its engine doc comment says.

// JIQ is join-idle-queue: an idle replica if any (the lowest id), else one
// drawn at random.
func JIQ() PolicySpec { return engine.JoinIdleQueue() }

// SED is shortest expected delay, (outstanding + 1) × mean service time,
// with the operator's known mean service times (none: all equal).
func SED(meanMs ...float64) PolicySpec { return engine.ShortestExpectedDelay(meanMs...) }

// LeastKV picks the lowest KV-cache utilisation, then the fewest
// outstanding.
func LeastKV() PolicySpec { return engine.LeastKV() }

// LLMD is llm-d's default scheduling profile: 2·queue + 2·KV + 3·prefix
// scores, the highest winning, ties at random.
func LLMD() PolicySpec { return engine.LLMD() }

// LLMDAffinity is llm-d's prefix-affinity filter (prefix score >= 0.8,
// skipped with probability 0.01) before the queue and KV scorers.
func LLMDAffinity() PolicySpec { return engine.LLMDAffinity() }

// LLMDShed is llm-d's default profile with its probabilistic admitter,
// which refuses sheddable requests as the pool saturates.
func LLMDShed() PolicySpec { return engine.LLMDShed() }

// VLLMDP is vLLM's data-parallel balancer: the lowest 4·waiting + running.
func VLLMDP() PolicySpec { return engine.VLLMDataParallel() }

// VLLMPrefix is the vLLM production stack's prefix-aware router: random
// among the replicas with the longest prefix match.
func VLLMPrefix() PolicySpec { return engine.VLLMPrefixAware() }

// SGLang is SGLang's cache-aware router: the best match unless the load is
// imbalanced, else the smallest tree.
func SGLang() PolicySpec { return engine.SGLang() }

// Dynamo is NVIDIA Dynamo's KV router with overlap weight w (1 by
// default): the lowest w·prefill blocks + decode blocks.
func Dynamo(w ...float64) PolicySpec {
	check("lab.Dynamo", len(w) <= 1, "w", len(w), "at most one weight")
	if len(w) == 0 {
		return engine.DynamoKV(1)
	}
	checkWeight("lab.Dynamo", w[0])
	return engine.DynamoKV(w[0])
}

// RayP2C is Ray Serve's power of two choices under max_ongoing_requests
// (5, Ray Serve's default).
func RayP2C() PolicySpec { return engine.RayPowerOfTwo(engine.RayServeDefaultMaxOngoing) }

// RayPrefix is Ray Serve LLM's prefix-cache affinity router.
func RayPrefix() PolicySpec { return engine.RayPrefixAffinity() }

// AIBrix is AIBrix's prefix-cache router.
func AIBrix() PolicySpec { return engine.AIBrix() }

// Prequal is Prequal's hot-cold lexicographic rule over probed replicas.
func Prequal() PolicySpec { return engine.Prequal() }

// C3 is C3's replica ranking with concurrency compensation.
func C3() PolicySpec { return engine.C3() }

// PeakEWMA is power of two choices by peak-EWMA latency (Finagle,
// Linkerd).
func PeakEWMA() PolicySpec { return engine.PeakEWMA() }

// LWL is least work left: an oracle that knows every request's true
// service time, a yardstick rather than a router.
func LWL() PolicySpec { return engine.LeastWorkLeft() }
