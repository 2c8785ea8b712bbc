package clone

import (
	"fmt"
	"reflect"
	"strings"
	"unsafe"
)

// Diff compares two value graphs as Copy copies them and returns where
// they first differ, or "" when they are the same: the same shape of
// sharing aside, every field, element, map entry and interface value
// equal, and functions the same function.
func Diff[T any](a, b *T) string {
	d := differ{seen: map[[2]uintptr]bool{}}
	d.walk(reflect.ValueOf(a), reflect.ValueOf(b))
	return d.found
}

type differ struct {
	seen  map[[2]uintptr]bool
	path  []string
	found string
}

func (d *differ) fail(format string, args ...any) {
	if d.found == "" {
		d.found = strings.Join(d.path, "") + ": " + fmt.Sprintf(format, args...)
	}
}

func readable(v reflect.Value) reflect.Value {
	if v.CanAddr() && !v.CanInterface() {
		return reflect.NewAt(v.Type(), unsafe.Pointer(v.UnsafeAddr())).Elem()
	}
	return v
}

func (d *differ) walk(a, b reflect.Value) {
	if d.found != "" {
		return
	}
	a, b = readable(a), readable(b)
	if a.Type() != b.Type() {
		d.fail("type %s against %s", a.Type(), b.Type())
		return
	}
	switch a.Kind() {
	case reflect.Pointer:
		if a.IsNil() || b.IsNil() {
			if a.IsNil() != b.IsNil() {
				d.fail("nil against non-nil")
			}
			return
		}
		k := [2]uintptr{a.Pointer(), b.Pointer()}
		if d.seen[k] {
			return
		}
		d.seen[k] = true
		d.path = append(d.path, "(*"+a.Type().Elem().String()+")")
		d.walk(a.Elem(), b.Elem())
		d.path = d.path[:len(d.path)-1]
	case reflect.Struct:
		for i := 0; i < a.NumField(); i++ {
			if outside(a.Type().Field(i)) {
				continue
			}
			d.path = append(d.path, "."+a.Type().Field(i).Name)
			d.walk(a.Field(i), b.Field(i))
			d.path = d.path[:len(d.path)-1]
		}
	case reflect.Array:
		for i := 0; i < a.Len(); i++ {
			d.path = append(d.path, fmt.Sprintf("[%d]", i))
			d.walk(a.Index(i), b.Index(i))
			d.path = d.path[:len(d.path)-1]
		}
	case reflect.Slice:
		if a.IsNil() != b.IsNil() || a.Len() != b.Len() {
			d.fail("length %d (nil %v) against %d (nil %v)", a.Len(), a.IsNil(), b.Len(), b.IsNil())
			return
		}
		for i := 0; i < a.Len(); i++ {
			d.path = append(d.path, fmt.Sprintf("[%d]", i))
			d.walk(a.Index(i), b.Index(i))
			d.path = d.path[:len(d.path)-1]
		}
	case reflect.Map:
		if a.IsNil() != b.IsNil() || a.Len() != b.Len() {
			d.fail("map of %d against %d", a.Len(), b.Len())
			return
		}
		it := a.MapRange()
		for it.Next() {
			k := it.Key()
			if !comparableKey(k) {
				d.fail("map key of type %s cannot be compared", k.Type())
				return
			}
			bv := b.MapIndex(k)
			d.path = append(d.path, fmt.Sprintf("[%v]", k))
			if !bv.IsValid() {
				d.fail("missing")
			} else {
				d.walk(copyOut(it.Value()), copyOut(bv))
			}
			d.path = d.path[:len(d.path)-1]
		}
	case reflect.Interface:
		if a.IsNil() || b.IsNil() {
			if a.IsNil() != b.IsNil() {
				d.fail("nil against non-nil")
			}
			return
		}
		d.walk(copyOut(a.Elem()), copyOut(b.Elem()))
	case reflect.Func:
		if a.IsNil() != b.IsNil() || (!a.IsNil() && a.Pointer() != b.Pointer()) {
			d.fail("different functions")
		}
	case reflect.Chan, reflect.UnsafePointer:
		if a.Pointer() != b.Pointer() {
			d.fail("different %s", a.Kind())
		}
	case reflect.Float32, reflect.Float64:
		if x, y := a.Float(), b.Float(); x != y && (x == x || y == y) {
			d.fail("%v against %v", x, y)
		}
	default:
		if a.Interface() != b.Interface() {
			d.fail("%v against %v", a.Interface(), b.Interface())
		}
	}
}

// comparableKey: keys holding pointers would compare by address, which
// differs between two graphs.
func comparableKey(k reflect.Value) bool { return !planOf(k.Type()).deep }

// copyOut makes a value that cannot be addressed addressable.
func copyOut(v reflect.Value) reflect.Value {
	c := reflect.New(v.Type()).Elem()
	c.Set(v)
	return c
}
