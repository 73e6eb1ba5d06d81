"""Payloads of ordinary Python classes written by pyfory 1.7.7 (the CLI
tests of libwire/tests/py/test_cli_real.py).

    python3 libwire/tests/cli/writers/pyfory_writer.py   # NAME HEX lines

payloads(compatible) returns {name: bytes}: an order graph, a struct type
that occurs twice in one message (two Address fields) and a recursive tree.
"""

import dataclasses
import datetime
import decimal
import enum
import sys
from typing import Dict, List, Optional, Set

import pyfory


class Status(enum.Enum):
    NEW = 0
    PAID = 1
    SHIPPED = 2


@dataclasses.dataclass
class Address:
    street: str = ""
    city: str = ""


@dataclasses.dataclass
class Customer:
    name: str = ""
    email: str = ""
    addresses: List[Address] = dataclasses.field(default_factory=list)


@dataclasses.dataclass
class Product:
    sku: str = ""
    price: decimal.Decimal = decimal.Decimal(0)


@dataclasses.dataclass
class OrderLine:
    product: Optional[Product] = None
    quantity: pyfory.Int32 = 0


@dataclasses.dataclass
class Order:
    id: int = 0
    customer: Optional[Customer] = None
    shipping: Optional[Address] = None
    lines: List[OrderLine] = dataclasses.field(default_factory=list)
    placed: datetime.datetime = datetime.datetime(1970, 1, 1, tzinfo=datetime.timezone.utc)
    due: datetime.date = datetime.date(1970, 1, 1)
    tags: Dict[str, str] = dataclasses.field(default_factory=dict)
    labels: Set[str] = dataclasses.field(default_factory=set)
    blob: bytes = b""
    status: Status = Status.NEW
    note: Optional[str] = None


@dataclasses.dataclass
class Person:
    name: str = ""
    home: Optional[Address] = None
    work: Optional[Address] = None


@dataclasses.dataclass
class Node:
    value: pyfory.Int32 = 0
    children: Optional[List["Node"]] = None


def fory(compatible=True):
    f = pyfory.Fory(xlang=True, ref=False, compatible=compatible)
    for cls in (Status, Address, Customer, Product, OrderLine, Order, Person, Node):
        f.register_type(cls, name="shop." + cls.__name__)
    return f


def order():
    return Order(
        id=1001,
        customer=Customer("Ada Lovelace", "ada@example.com", [Address("12 Analytical Row", "London")]),
        shipping=Address("1 Engine Lane", "Cambridge"),
        lines=[OrderLine(Product("BAB-1", decimal.Decimal("349.99")), 1),
               OrderLine(Product("CARD-80", decimal.Decimal("0.05")), 80)],
        placed=datetime.datetime(2024, 2, 29, 12, 34, 56, 789000, tzinfo=datetime.timezone.utc),
        due=datetime.date(2024, 3, 15),
        tags={"channel": "web", "gift": "no"},
        labels={"priority"},
        blob=b"\x00\x01\x02\xff",
        status=Status.PAID,
        note=None,
    )


def payloads(compatible=True):
    f = fory(compatible)
    return {
        "order": f.serialize(order()),
        "person": f.serialize(Person("ann", Address("1 Home St", "Oslo"), Address("2 Work Rd", "Bergen"))),
        "tree": f.serialize(Node(1, [Node(2, [Node(4, [])]), Node(3, [])])),
        "address": f.serialize(Address("1 Home St", "Oslo")),
    }


if __name__ == "__main__":
    compatible = "--same-schema" not in sys.argv[1:]
    for name, b in payloads(compatible).items():
        print(name, b.hex())
