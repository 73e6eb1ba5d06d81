package wire

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// The C sources the package compiles (csrc/, lw_*.c) are copies of
// libwire's; in a checkout of the repository they must match it
// (sync_csrc.sh regenerates them). Outside the repository (a module
// download) there is nothing to compare with.
func TestCSourcesInSync(t *testing.T) {
	if _, err := os.Stat(filepath.Join("..", "..", "libwire", "src")); err != nil {
		t.Skip("not in a libwire checkout: no libwire/src to compare csrc/ with")
	}
	out, err := exec.Command("sh", "sync_csrc.sh", "--check").CombinedOutput()
	if err != nil {
		t.Fatalf("%s(%v)", out, err)
	}
}
