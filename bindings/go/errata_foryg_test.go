package wire

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"os"
	"testing"
	"time"

	"github.com/apache/fory/go/fory"
)

// The fixtures that settle spec/errata.md E-51 and E-52, read by Fory Go
// v1.6.1 itself: it fails on both, and the binding reads both.

// fixtureBytes returns the bytes of the valid fixture id in file (under
// fixtures/valid).
func fixtureBytes(t *testing.T, file, id string) []byte {
	t.Helper()
	raw, err := os.ReadFile("../../fixtures/valid/" + file)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Tests []struct {
			ID    string `json:"id"`
			Bytes string `json:"bytes"`
		} `json:"tests"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	for _, x := range doc.Tests {
		if x.ID == id {
			b, err := hex.DecodeString(x.Bytes)
			if err != nil {
				t.Fatal(err)
			}
			return b
		}
	}
	t.Fatalf("no fixture %s in %s", id, file)
	return nil
}

// E-51: temp.duration.0012 is -9223372036.854775 s (floor seconds
// -9223372037, 145225000 ns), written by pyfory and Fory Java. Fory Go
// writes the same bytes for that time.Duration, and refuses them.
func TestForyGoE51DurationFixture(t *testing.T) {
	data := fixtureBytes(t, "temporal.json", "temp.duration.0012")
	d := time.Duration(-9223372036854775000)
	f := fory.New(fory.WithXlang(true), fory.WithTrackRef(false), fory.WithCompatible(false))
	goBytes, err := f.Serialize(d)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(goBytes, data) {
		t.Errorf("Fory Go writes %x for %d ns, the fixture is %x", goBytes, int64(d), data)
	}
	var back time.Duration
	if err := f.Deserialize(data, &back); err == nil {
		t.Errorf("Fory Go read %x as %d ns: E-51 no longer holds, update spec/errata.md", data, int64(back))
	}
	c, _ := NewContext()
	defer c.Close()
	var mine time.Duration
	if err := c.Unmarshal(data, &mine); err != nil || mine != d {
		t.Errorf("the binding read %x as %d ns, %v", data, int64(mine), err)
	}
}

// The classes of ExactWriter's Outer and Inner (model nestedref), with
// Inner held by value.
type e52Inner struct {
	A int32
	B string
}

type e52Outer struct {
	Inner e52Inner
	Label string
}

// E-52: exact.java.0046 is Fory Java's Outer{Inner inner; String label}
// in same-schema mode with reference tracking on: the by-value field has
// no flag (pyfory writes the same). Fory Go fails on it and writes a 0xff
// flag before the nested struct's hash instead; the compatible-mode
// payload (exact.java.0045) it reads.
func TestForyGoE52ByValueFieldFixture(t *testing.T) {
	want := e52Outer{e52Inner{7, "seven"}, "outer"}
	for _, x := range []struct {
		id         string
		compatible bool
	}{{"exact.java.0046", false}, {"exact.java.0045", true}} {
		data := fixtureBytes(t, "structs/exact.json", x.id)
		f := fory.New(fory.WithXlang(true), fory.WithTrackRef(true), fory.WithCompatible(x.compatible))
		if err := f.RegisterStructByName(e52Inner{}, "ex.Inner"); err != nil {
			t.Fatal(err)
		}
		if err := f.RegisterStructByName(e52Outer{}, "ex.Outer"); err != nil {
			t.Fatal(err)
		}
		var got e52Outer
		err := f.Deserialize(data, &got)
		if x.compatible {
			if err != nil || got != want {
				t.Errorf("%s: Fory Go read %+v, %v", x.id, got, err)
			}
			continue
		}
		if err == nil && got == want {
			t.Errorf("%s: Fory Go read %x: E-52 no longer holds, update spec/errata.md", x.id, data)
		}
		t.Logf("%s: Fory Go: %+v, %v", x.id, got, err)
		goBytes, err := f.Serialize(&want)
		if err != nil {
			t.Fatal(err)
		}
		// Go's strings are UTF-8 where Java's are Latin-1: compare up to the
		// nested struct's schema hash only
		if i := flagBeforeHash(data, goBytes); i < 0 {
			t.Errorf("%s: Fory Go writes %x, not a 0xff flag before the nested hash of %x", x.id, goBytes, data)
		}
	}
}

// flagBeforeHash: the offset of the first byte where theirs departs from
// mine when theirs has a 0xff there followed by mine's next four bytes (a
// flag before the nested struct's schema hash), or -1.
func flagBeforeHash(mine, theirs []byte) int {
	i := 0
	for i < len(mine) && i < len(theirs) && mine[i] == theirs[i] {
		i++
	}
	if i+4 > len(mine) || i+5 > len(theirs) || theirs[i] != 0xff || !bytes.Equal(mine[i:i+4], theirs[i+1:i+5]) {
		return -1
	}
	return i
}
