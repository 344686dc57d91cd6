package ui

import (
	"strings"
	"testing"
)

// The intent line of an activity that uploads a 400 kB contract interface,
// as the detail pane wraps it each time it renders the activity: one word
// of escaped quotes, and one of plain letters.
func BenchmarkWrapLargeIntentLine(b *testing.B) {
	lines := map[string]string{
		"escaped-quotes": `    "smartContractInterface": "[\"` + strings.Repeat(`\\\"`, 133_000) + `\"]",`,
		"letters":        `    "smartContractInterface": "` + strings.Repeat("a", 400_000) + `",`,
		"abi-with-commas": `    "smartContractInterface": "[` +
			strings.Repeat(`{\"name\":\"x\",\"type\":\"function\"},`, 12_000) + `]",`,
	}
	for name, l := range lines {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				wrapLine(l, 98)
			}
		})
	}
}
