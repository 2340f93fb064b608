package report

import (
	"embed"
	"html/template"
	"io/fs"
)

//go:embed templates/*.html
var templateFS embed.FS

//go:embed assets/*
var assetFS embed.FS

var pages = template.Must(template.New("").Funcs(funcs).ParseFS(templateFS, "templates/*.html"))

// writeAssets writes the style sheet and scripts every page uses.
func writeAssets(k *sink) error {
	return fs.WalkDir(assetFS, "assets", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := assetFS.ReadFile(p)
		if err != nil {
			return err
		}
		if p == "assets/style.css" {
			b = styleSheet(b)
		}
		return k.put(p, b, 0)
	})
}

// styleSheet is the site's style sheet: assets/style.css (css) and the
// standings' layouts.
func styleSheet(css []byte) []byte {
	return append(append([]byte(nil), css...), stSheet()...)
}
