#!/bin/sh
# The README's "Install" promise, checked (make test): a brand-new module
# outside the checkout, `require` + `replace` to this directory, the README's
# example as its main, built and run with the Go toolchain alone: no make, no
# pkg-config, no build/ directory, nothing fetched (GOPROXY=off, no go.sum).
# The output must be the example's (the first line is the Java runtime's bytes
# of Item{"test_item_1"}, fixtures/xlang-corpus/test_item.json).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
export GOPROXY=off GOWORK=off GOFLAGS=
go mod init example.com/app >/dev/null 2>&1
go mod edit -require libwire.dev/wire@v0.0.0 -replace "libwire.dev/wire=$here"
cat > main.go <<GO
package main

import (
	"fmt"

	"libwire.dev/wire"
)

type Item struct{ Name string }

func main() {
	ctx, _ := wire.NewContext(wire.WithCompatible(true))
	defer ctx.Close()
	if err := ctx.LoadSchema("$root/fixtures/schemas/xlang/test_item.fdl"); err != nil { // message Item [id=102]
		panic(err)
	}
	ctx.RegisterStruct("Item", Item{})
	data, _ := ctx.Marshal(Item{Name: "test_item_1"}) // the Java runtime's bytes
	var back Item
	err := ctx.Unmarshal(data, &back)
	b, _ := wire.Marshal([]any{int64(1), "a", nil}) // no schema needed
	fmt.Printf("%x\n%+v %v\n%x\n", data, back, err, b)
}
GO
go build -o app .
want="01ff1c000740e77dddc02d2ac1664815340c202c746573745f6974656d5f31
{Name:test_item_1} <nil>
01ff160302ff0702ff150461fd"
got=$(./app)
if [ "$got" != "$want" ]; then
  echo "fresh_module_check: the example printed:" >&2; echo "$got" >&2; exit 1
fi
[ ! -e go.sum ] || { echo "fresh_module_check: go.sum was written:" >&2; cat go.sum >&2; exit 1; }
echo "fresh_module_check: a new module builds and runs the README example (Go toolchain alone)"
