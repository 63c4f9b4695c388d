package kernel

import (
	"runtime"
	"strings"
)

// Info is what the kernel says about itself in kernel_info_reply and what the
// notebook runner writes into a notebook's metadata.
type Info struct {
	Implementation        string       `json:"implementation"`
	ImplementationVersion string       `json:"implementation_version"`
	Banner                string       `json:"banner"`
	Language              LanguageInfo `json:"language_info"`
	HelpLinks             []HelpLink   `json:"help_links"`
	// KernelName and DisplayName identify the kernelspec in notebook metadata.
	KernelName  string `json:"-"`
	DisplayName string `json:"-"`
}

// LanguageInfo is the language_info of kernel_info_reply and notebook metadata.
type LanguageInfo struct {
	Name              string `json:"name"`
	Version           string `json:"version"`
	Mimetype          string `json:"mimetype"`
	FileExtension     string `json:"file_extension"`
	PygmentsLexer     string `json:"pygments_lexer"`
	CodemirrorMode    string `json:"codemirror_mode"`
	NBConvertExporter string `json:"nbconvert_exporter,omitempty"`
}

// HelpLink is one entry of the front end's help menu.
type HelpLink struct {
	Text string `json:"text"`
	URL  string `json:"url"`
}

// Default kernelspec names, shared by Install and the notebook runner.
const (
	DefaultKernelName  = "routelab"
	DefaultDisplayName = "Go (routelab)"
)

// DefaultInfo describes routelab's Go kernel.
func DefaultInfo() Info {
	goVersion := strings.TrimPrefix(runtime.Version(), "go")
	return Info{
		Implementation:        "routelab",
		ImplementationVersion: "0.1.0",
		Banner: "routelab — Go notebooks for request-routing experiments\n" +
			"Go " + goVersion + " (yaegi interpreter); Jupyter protocol " + ProtocolVersion,
		Language: LanguageInfo{
			Name:           "go",
			Version:        goVersion,
			Mimetype:       "text/x-go",
			FileExtension:  ".go",
			PygmentsLexer:  "go",
			CodemirrorMode: "go",
		},
		HelpLinks: []HelpLink{
			{Text: "Go documentation", URL: "https://go.dev/doc/"},
			{Text: "Go standard library", URL: "https://pkg.go.dev/std"},
		},
		KernelName:  DefaultKernelName,
		DisplayName: DefaultDisplayName,
	}
}

// kernelInfoReply is the content of kernel_info_reply.
type kernelInfoReply struct {
	Status          string `json:"status"`
	ProtocolVersion string `json:"protocol_version"`
	Info
	Debugger bool `json:"debugger"`
	// SupportedFeatures lists the optional protocol features (5.5) the
	// kernel has: none of them (no debugger, no subshells). Comms and
	// widgets are not optional features; comm_info lists the open ones.
	SupportedFeatures []string `json:"supported_features"`
}

func (i Info) reply() kernelInfoReply {
	if i.HelpLinks == nil {
		i.HelpLinks = []HelpLink{}
	}
	return kernelInfoReply{Status: "ok", ProtocolVersion: ProtocolVersion, Info: i, SupportedFeatures: []string{}}
}
