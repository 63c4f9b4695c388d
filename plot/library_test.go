package plot

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"regexp"
	"strings"
	"testing"
)

func TestEmbeddedLibraryMatchesRecordedSHA256(t *testing.T) {
	want := recordedSHA256()
	if !regexp.MustCompile(`^[0-9a-f]{64}$`).MatchString(want) {
		t.Fatalf("assets/echarts.min.js.sha256 holds %q, not a SHA-256", echartsSHA256)
	}
	lib, err := LibraryJS()
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(lib)
	if got := hex.EncodeToString(sum[:]); got != want {
		t.Fatalf("embedded library SHA-256 %s, recorded %s", got, want)
	}
	if !bytes.Contains(lib, []byte(`version="`+EChartsVersion+`"`)) && !bytes.Contains(lib, []byte(`"`+EChartsVersion+`"`)) {
		t.Errorf("embedded library does not mention version %s", EChartsVersion)
	}
}

// The refetch script and the Go constant must name the same release.
func TestFetchScriptFetchesEmbeddedVersion(t *testing.T) {
	script, err := os.ReadFile("assets/fetch.sh")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^VERSION=(\S+)$`).FindSubmatch(script)
	if m == nil || string(m[1]) != EChartsVersion {
		t.Fatalf("assets/fetch.sh fetches %q, EChartsVersion is %q", m, EChartsVersion)
	}
	if !strings.HasPrefix(EChartsVersion, "5.") {
		t.Fatalf("EChartsVersion %s: stay on ECharts 5.x (6.x overlaps title and legend with these options)", EChartsVersion)
	}
}

// Pages inline the library in a <script> element.
func TestLibraryCannotCloseItsScriptElement(t *testing.T) {
	lib, err := LibraryJS()
	if err != nil {
		t.Fatal(err)
	}
	if closingScript().Match(lib) || bytes.Contains(lib, []byte("<!--")) {
		t.Fatal("library contains </script or <!--; pages would need more escaping than closingScript does")
	}
}

func TestLibraryLicensesShipped(t *testing.T) {
	text := LibraryLicenses()
	for _, want := range []string{"Apache License", "The Apache Software Foundation", "Baidu", "BSD", "Microsoft"} {
		if !strings.Contains(text, want) {
			t.Errorf("LibraryLicenses lacks %q", want)
		}
	}
}
