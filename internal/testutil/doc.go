// Package testutil holds the helpers routelab's tests share across
// packages: a buffer that goroutines may write while a test reads it
// (SyncBuffer), the equality of lossless round trips (SameBits), and the
// gate of the tests that drive a real Chromium (Chromium, HaveChromium,
// ChromiumRequired), which skips them on a machine without one unless
// ROUTELAB_REQUIRE_CHROMIUM makes them mandatory, as CI does. Only tests import it. What the Jupyter tests
// share lives in internal/jupytertest.
//
// testutil.go holds SyncBuffer and the Chromium gate; bits.go SameBits.
package testutil
