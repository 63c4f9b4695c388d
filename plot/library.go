package plot

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	_ "embed"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"io"
	"strings"
)

// The library is vendored, not generated: sh plot/assets/fetch.sh fetches
// it from the npm registry when it is to change, so go generate ./... never
// needs the network.

// EChartsVersion is the version of the ECharts library embedded in the binary
// (npm package echarts, file dist/echarts.min.js). It matches go-echarts
// v2.6.7's own asset version.
const EChartsVersion = "5.4.3"

// echartsGz is dist/echarts.min.js compressed with gzip -n -9; assets/fetch.sh
// re-creates it and checks the SHA-256 recorded in echartsSHA256.
//
//go:embed assets/echarts.min.js.gz
var echartsGz []byte

//go:embed assets/echarts.min.js.sha256
var echartsSHA256 string

// Licence texts of the embedded library and of what its bundle contains.
var (
	//go:embed assets/LICENSE-echarts
	licenseECharts string
	//go:embed assets/NOTICE-echarts
	noticeECharts string
	//go:embed assets/LICENSE-zrender
	licenseZRender string
	//go:embed assets/LICENSE-d3
	licenseD3 string
	//go:embed assets/LICENSE-tslib
	licenseTSLib string
)

// LibraryJS returns the embedded ECharts library, uncompressed, after checking
// it against its recorded SHA-256.
func LibraryJS() ([]byte, error) {
	zr, err := gzip.NewReader(bytes.NewReader(echartsGz))
	if err != nil {
		return nil, fmt.Errorf("plot: embedded ECharts library: %w", err)
	}
	src, err := io.ReadAll(zr)
	if err != nil {
		return nil, fmt.Errorf("plot: embedded ECharts library: %w", err)
	}
	sum := sha256.Sum256(src)
	if got, want := hex.EncodeToString(sum[:]), recordedSHA256(); got != want {
		return nil, fmt.Errorf("plot: embedded ECharts library has SHA-256 %s, recorded %s: run sh plot/assets/fetch.sh", got, want)
	}
	return src, nil
}

// libraryGzipBase64 is the library as shipped inside notebook fragments.
func libraryGzipBase64() string {
	return base64.StdEncoding.EncodeToString(echartsGz)
}

// recordedSHA256 is the hash field of assets/echarts.min.js.sha256
// (sha256sum's format, read by fetch.sh too).
func recordedSHA256() string {
	fields := strings.Fields(echartsSHA256)
	if len(fields) == 0 {
		return ""
	}
	return fields[0]
}

// LibraryLicenses returns the licence and notice texts of the embedded
// library (ECharts, and the zrender, d3 and tslib code bundled into it), for
// anyone redistributing pages or fragments.
func LibraryLicenses() string {
	parts := []struct{ name, text string }{
		{"Apache ECharts " + EChartsVersion + " LICENSE", licenseECharts},
		{"Apache ECharts NOTICE", noticeECharts},
		{"zrender LICENSE", licenseZRender},
		{"d3 LICENSE (code embedded in ECharts)", licenseD3},
		{"tslib LICENSE", licenseTSLib},
	}
	var b strings.Builder
	for _, p := range parts {
		fmt.Fprintf(&b, "==== %s ====\n%s\n", p.name, strings.TrimRight(p.text, "\n"))
	}
	return b.String()
}
