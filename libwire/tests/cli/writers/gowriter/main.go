// Command gowriter prints payloads of ordinary Go structs written by Fory Go
// (the CLI tests of libwire/tests/py/test_cli_real.py), one "NAME HEX"
// line each: xlang, compatible mode, no reference tracking.
package main

import (
	"encoding/hex"
	"fmt"
	"os"
	"time"

	"github.com/apache/fory/go/fory"
)

type Address struct {
	Street string
	City   string
}

type Customer struct {
	Name      string
	Email     string
	Addresses []Address
}

type OrderLine struct {
	Sku      string
	Quantity int32
	Cents    int64
}

type Order struct {
	Id       int64
	Customer Customer
	Shipping Address
	Lines    []OrderLine
	Placed   time.Time
	Tags     map[string]string
	Blob     []byte
}

type Person struct {
	Name string
	Home Address
	Work Address
}

func main() {
	f := fory.New(fory.WithXlang(true), fory.WithCompatible(true), fory.WithTrackRef(false))
	for _, r := range []struct {
		v    any
		name string
	}{{Address{}, "shop.Address"}, {Customer{}, "shop.Customer"}, {OrderLine{}, "shop.OrderLine"},
		{Order{}, "shop.Order"}, {Person{}, "shop.Person"}} {
		if err := f.RegisterStructByName(r.v, r.name); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	}
	order := Order{
		Id:       1001,
		Customer: Customer{Name: "Ada Lovelace", Email: "ada@example.com", Addresses: []Address{{"12 Analytical Row", "London"}}},
		Shipping: Address{"1 Engine Lane", "Cambridge"},
		Lines:    []OrderLine{{"BAB-1", 1, 34999}, {"CARD-80", 80, 5}},
		Placed:   time.Date(2024, 2, 29, 12, 34, 56, 789000000, time.UTC),
		Tags:     map[string]string{"channel": "web"}, // one entry: Go maps have no order
		Blob:     []byte{0, 1, 2, 0xff},
	}
	person := Person{"ann", Address{"1 Home St", "Oslo"}, Address{"2 Work Rd", "Bergen"}}
	for _, p := range []struct {
		name string
		v    any
	}{{"order", &order}, {"person", &person}} {
		b, err := f.Serialize(p.v)
		if err != nil {
			fmt.Fprintln(os.Stderr, p.name, err)
			os.Exit(1)
		}
		fmt.Println(p.name, hex.EncodeToString(b))
	}
}
