package wire_test

import (
	"fmt"

	wire "libwire.dev/wire"
)

type Item struct{ Name string }

// The README example: an FDL struct in compatible mode, then a schema-less
// list.
func Example() {
	ctx, _ := wire.NewContext(wire.WithCompatible(true))
	defer ctx.Close()
	ctx.LoadSchema("../../fixtures/schemas/xlang/test_item.fdl") // message Item [id=102]
	ctx.RegisterStruct("Item", Item{})
	data, _ := ctx.Marshal(Item{Name: "test_item_1"}) // the Java runtime's bytes
	var back Item
	err := ctx.Unmarshal(data, &back)
	b, _ := wire.Marshal([]any{int64(1), "a", nil}) // no schema needed
	fmt.Printf("%x\n%+v %v\n%x\n", data, back, err, b)
	// Output:
	// 01ff1c000740e77dddc02d2ac1664815340c202c746573745f6974656d5f31
	// {Name:test_item_1} <nil>
	// 01ff160302ff0702ff150461fd
}
