module libwire.dev/exactgowriter

go 1.26

require github.com/apache/fory/go/fory v1.6.1
