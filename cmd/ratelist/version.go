package main

import (
	"cmp"
	"runtime/debug"
)

// version is what --version prints and summary.json records. A release build
// sets it with -ldflags "-X main.version=v1.2.3"; otherwise main takes it from
// the build info. Tests call run, not main: they see "devel", so golden files
// do not depend on the build.
var version string

// currentVersion is version, or "devel" when nothing set it.
func currentVersion() string { return cmp.Or(version, "devel") }

// buildVersion is the version recorded in a binary's build info: the main
// module's version (a tag or a pseudo-version from the commit), else the
// commit (with "-dirty" for uncommitted changes), else "devel".
func buildVersion(info *debug.BuildInfo, ok bool) string {
	if !ok || info == nil {
		return "devel"
	}
	if v := info.Main.Version; v != "" && v != "(devel)" {
		return v
	}
	var rev, dirty string
	for _, s := range info.Settings {
		switch {
		case s.Key == "vcs.revision":
			rev = s.Value[:min(12, len(s.Value))]
		case s.Key == "vcs.modified" && s.Value == "true":
			dirty = "-dirty"
		}
	}
	if rev == "" {
		return "devel"
	}
	return rev + dirty
}
