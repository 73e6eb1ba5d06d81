module github.com/libwire/conformance/peers/go

go 1.25.0

require github.com/apache/fory/go/fory v1.6.1
