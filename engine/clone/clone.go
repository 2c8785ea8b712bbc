// Package clone makes a deep copy of a value graph: every pointer,
// slice, map and interface reachable from it is copied, unexported fields
// included, and what several references shared stays shared in the copy.
//
// It is correct by construction rather than by a Clone method per type
// that someone must remember to extend: it walks whatever the types hold
// now. What it cannot copy faithfully it refuses with an error instead of
// sharing: a closure or a method value (its captured variables are out of
// reach), a channel, an unsafe.Pointer. A plain function is shared, as it
// holds no state. Strings are shared, as they never change, and so is a
// value without pointers boxed in an interface, which cannot change
// either.
//
// A value of type Shared is a string like any other, shared by the copy,
// and also counted: CopySized says how many bytes of Shared values a copy
// holds in common with the original, what the copy keeps alive beyond
// what it allocated once the original drops them.
//
// A struct field tagged `clone:"-"` (that tag alone) is not part of the value: the copy
// holds its zero value, and Diff does not compare it. A simulation's links
// to what every copy of it shares (its timeline, a hook) are such fields;
// whoever takes a copy links it again.
//
// For speed it works on memory directly, with a plan per type that lists
// where the pointers are; memory is copied with reflect's typed copies,
// so the garbage collector sees every pointer written.
package clone

import (
	"fmt"
	"reflect"
	"runtime"
	"strings"
	"sync"
	"unsafe"
)

// Refused is the error for a value that cannot be copied.
type Refused struct {
	Path string // where in the graph, as types and fields
	Why  string
	// TooLarge: the copy would have taken more than CopyUpTo's limit.
	TooLarge bool
}

func (e *Refused) Error() string { return "clone: " + e.Path + ": " + e.Why }

// Shared is an immutable run of bytes: the bytes of a file, a message's
// body. A copy shares it, as it shares every string, and counts it.
type Shared string

// SharedOf is b as a Shared without a copy: it keeps b's memory, so b
// must never change after.
func SharedOf(b []byte) Shared { return Shared(unsafe.String(unsafe.SliceData(b), len(b))) }

// Bytes is s as a slice of its own memory, without a copy: to be read
// only (an encoder appends it), never written or kept.
func (s Shared) Bytes() []byte { return unsafe.Slice(unsafe.StringData(string(s)), len(s)) }

// Size is what a copy takes: the bytes it allocated, and the bytes of the
// Shared values it holds in common with the original, each counted once.
// Shares lists those values, their lengths by where their bytes are: a
// holder of several copies counts what they share together once.
//
// NB: an address in Shares keeps nothing alive (a uintptr, so that the
// collector has nothing to scan in it); the copy does.
type Size struct {
	Copied, Shared int64
	Shares         map[uintptr]int
}

// Copy returns a deep copy of *p as a new pointer, and the bytes it
// allocated.
func Copy[T any](p *T) (cp *T, bytes int64, err error) { return CopyUpTo(p, 0) }

// CopyUpTo is Copy that gives up, with a *Refused error, once the copy
// would allocate more than limit bytes (0: no limit).
func CopyUpTo[T any](p *T, limit int64) (cp *T, bytes int64, err error) {
	cp, size, err := CopySized(p, limit)
	return cp, size.Copied, err
}

// CopySized is CopyUpTo that says what the copy shares as well.
func CopySized[T any](p *T, limit int64) (cp *T, size Size, err error) {
	c := copier{ptrs: map[ptrKey]unsafe.Pointer{}, limit: limit}
	defer func() {
		if r := recover(); r != nil {
			ref, ok := r.(*Refused)
			if !ok {
				panic(r)
			}
			cp, size, err = nil, Size{}, ref
		}
	}()
	pl := planOf(reflect.TypeFor[T]())
	np := c.pointer(unsafe.Pointer(p), pl)
	return (*T)(np), Size{Copied: c.bytes, Shared: c.shared, Shares: c.sharedSeen}, nil
}

// plan is what the copier needs to know about a type.
type plan struct {
	t    reflect.Type
	kind reflect.Kind
	size uintptr
	deep bool // holds pointers, slices, maps, interfaces or functions
	// elem: a pointer's, slice's or array's element type
	elem *plan
	n    int // an array's length
	// fields: a struct's deep fields
	fields []field
	// efaceLike: an interface without methods (any)
	eface bool
	// shared: the type Shared, which fix counts
	shared bool
	// nilFields: a struct whose every deep field is a pointer, slice,
	// map, interface, function, channel or unsafe.Pointer, which fix
	// leaves alone when its first word is nil (see zeroFields)
	nilFields bool
}

type field struct {
	off  uintptr
	name string
	p    *plan
	out  bool // tagged clone:"-": zeroed in the copy
}

// outside says whether a struct field is tagged clone:"-". The tag is
// matched whole: StructTag.Get would bring strconv's unquoting into the
// browser's build, about 20 kB, for tags that hold nothing else.
func outside(f reflect.StructField) bool { return f.Tag == `clone:"-"` }

var (
	plans    sync.Map // reflect.Type -> *plan, complete
	planning sync.Mutex
	partial  = map[reflect.Type]*plan{} // being built, under planning
)

func planOf(t reflect.Type) *plan {
	if p, ok := plans.Load(t); ok {
		return p.(*plan)
	}
	planning.Lock()
	defer planning.Unlock()
	p := build(t)
	for t, q := range partial {
		plans.Store(t, q)
	}
	clear(partial)
	return p
}

// build makes the plan of t, with planning held; a recursive type finds
// its own plan, not yet complete, in partial.
func build(t reflect.Type) *plan {
	if p, ok := plans.Load(t); ok {
		return p.(*plan)
	}
	if p, ok := partial[t]; ok {
		return p
	}
	p := &plan{t: t, kind: t.Kind(), size: t.Size(), deep: true}
	partial[t] = p
	switch p.kind {
	case reflect.Pointer, reflect.Slice:
		p.elem = build(t.Elem())
	case reflect.Array:
		p.elem, p.n = build(t.Elem()), t.Len()
		p.deep = p.n > 0 && p.elem.deep
	case reflect.Struct:
		p.deep = false
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			fp := build(f.Type)
			if fp.deep || outside(f) {
				p.fields = append(p.fields, field{f.Offset, f.Name, fp, outside(f)})
				p.deep = true
			}
		}
		p.nilFields = true
		for _, f := range p.fields {
			switch f.p.kind {
			case reflect.Pointer, reflect.Slice, reflect.Map, reflect.Interface, reflect.Func, reflect.Chan, reflect.UnsafePointer:
			default:
				p.nilFields = false
			}
		}
	case reflect.Interface:
		p.eface = t.NumMethod() == 0
	case reflect.Map, reflect.Func, reflect.Chan, reflect.UnsafePointer:
	case reflect.String:
		p.shared = t == sharedType
		p.deep = p.shared
	default:
		p.deep = false
	}
	return p
}

var sharedType = reflect.TypeFor[Shared]()

type ptrKey struct {
	addr unsafe.Pointer
	p    *plan
}

type sliceKey struct {
	addr     unsafe.Pointer
	len, cap int
	p        *plan
}

type copier struct {
	ptrs   map[ptrKey]unsafe.Pointer
	slices map[sliceKey]sliceHeader
	maps   map[unsafe.Pointer]reflect.Value
	bytes  int64
	limit  int64
	// shared counts the bytes of Shared values met, each once (by where
	// its bytes are)
	shared     int64
	sharedSeen map[uintptr]int
	path       []step // where the copy is, named only if it is refused
	// the last pointer copied and the last interface type met: a ring of
	// messages holds thousands of the same frame, boxed the same way
	last     ptrKey
	lastCopy unsafe.Pointer
	lastType unsafe.Pointer // an interface's first word
	lastPlan *plan          // the plan of the type it names
}

type sliceHeader struct {
	data     unsafe.Pointer
	len, cap int
}

// step is one step down the graph: a field, or (name "") what a pointer
// of type t points to.
type step struct {
	t    reflect.Type
	name string
}

func (c *copier) grow(n int64) {
	c.bytes += n
	if c.limit > 0 && c.bytes > c.limit {
		panic(&Refused{Why: fmt.Sprintf("the copy takes more than %d bytes", c.limit), TooLarge: true})
	}
}

func (c *copier) refuse(why string) {
	var b strings.Builder
	for _, s := range c.path {
		if s.name == "" {
			b.WriteString("(*" + s.t.String() + ")")
		} else {
			b.WriteString("." + s.name)
		}
	}
	panic(&Refused{Path: b.String(), Why: why})
}

// value is the reflect view of the memory at p, holding a pl.t.
func value(p unsafe.Pointer, pl *plan) reflect.Value {
	return reflect.NewAt(pl.t, p).Elem()
}

// pointer copies what src (of type *pl.t) points to.
func (c *copier) pointer(src unsafe.Pointer, pl *plan) unsafe.Pointer {
	if src == nil {
		return nil
	}
	k := ptrKey{src, pl}
	if k == c.last {
		return c.lastCopy
	}
	if d, ok := c.ptrs[k]; ok {
		c.last, c.lastCopy = k, d
		return d
	}
	nv := reflect.New(pl.t)
	d := nv.UnsafePointer()
	c.ptrs[k] = d
	c.last, c.lastCopy = k, d
	c.grow(int64(pl.size))
	nv.Elem().Set(value(src, pl))
	if pl.deep {
		c.path = append(c.path, step{t: pl.t})
		c.fix(d, src, pl)
		c.path = c.path[:len(c.path)-1]
	}
	return d
}

// fix replaces, in dst (already a typed copy of src), everything the copy
// shares with src by a copy of its own.
func (c *copier) fix(dst, src unsafe.Pointer, pl *plan) {
	switch pl.kind {
	case reflect.Pointer:
		if sp := *(*unsafe.Pointer)(src); sp != nil {
			*(*unsafe.Pointer)(dst) = c.pointer(sp, pl.elem)
		}
	case reflect.Struct:
		for i := range pl.fields {
			f := &pl.fields[i]
			if f.out {
				value(unsafe.Add(dst, f.off), f.p).Set(reflect.Zero(f.p.t))
				continue
			}
			c.path = append(c.path, step{name: f.name})
			c.fix(unsafe.Add(dst, f.off), unsafe.Add(src, f.off), f.p)
			c.path = c.path[:len(c.path)-1]
		}
	case reflect.Array:
		for i := 0; i < pl.n; i++ {
			off := uintptr(i) * pl.elem.size
			if !zeroFields(unsafe.Add(src, off), pl.elem) {
				c.fix(unsafe.Add(dst, off), unsafe.Add(src, off), pl.elem)
			}
		}
	case reflect.Slice:
		*(*sliceHeader)(dst) = c.slice(*(*sliceHeader)(src), pl)
	case reflect.Map:
		sv := value(src, pl)
		if !sv.IsNil() {
			value(dst, pl).Set(c.mapCopy(sv, pl))
		}
	case reflect.Interface:
		c.iface(dst, src, pl)
	case reflect.String: // Shared: counted, and shared as it is
		if s := *(*string)(src); s != "" {
			p := uintptr(unsafe.Pointer(unsafe.StringData(s)))
			if c.sharedSeen == nil {
				c.sharedSeen = map[uintptr]int{}
			}
			if _, ok := c.sharedSeen[p]; !ok {
				c.sharedSeen[p] = len(s)
				c.shared += int64(len(s))
			}
		}
	case reflect.Func:
		if fp := *(*unsafe.Pointer)(src); fp != nil {
			if pc := value(src, pl).Pointer(); closure(pc) {
				c.refuse("holds a closure or method value (" + funcName(pc) + "), whose captured state cannot be copied")
			}
		}
	case reflect.Chan:
		if *(*unsafe.Pointer)(src) != nil {
			c.refuse("holds a channel")
		}
	case reflect.UnsafePointer:
		if *(*unsafe.Pointer)(src) != nil {
			c.refuse("holds an unsafe.Pointer")
		}
	}
}

// zeroFields reports whether the struct at src (of plan pl) holds nothing
// for fix to copy: its deep fields are all of the kinds nilFields names,
// each with a nil first word (a nil pointer, map, function or channel, a
// slice without an array, an empty interface). A ring of messages is
// mostly empty slots, which fix would visit one field at a time.
func zeroFields(src unsafe.Pointer, pl *plan) bool {
	if !pl.nilFields {
		return false
	}
	for i := range pl.fields {
		if *(*unsafe.Pointer)(unsafe.Add(src, pl.fields[i].off)) != nil {
			return false
		}
	}
	return true
}

// iface copies what an interface holds. Its second word is the value's
// data: a pointer-shaped value itself, else a pointer to a boxed copy.
func (c *copier) iface(dst, src unsafe.Pointer, pl *plan) {
	words := (*[2]unsafe.Pointer)(src)
	if words[0] == nil {
		return // nil interface
	}
	ep := c.lastPlan
	if words[0] != c.lastType {
		ep = planOf(value(src, pl).Elem().Type())
		c.lastType, c.lastPlan = words[0], ep
	}
	if !ep.deep {
		return // the box cannot change: share it
	}
	if ep.kind == reflect.Pointer {
		(*[2]unsafe.Pointer)(dst)[1] = c.pointer(words[1], ep.elem)
		return
	}
	e := value(src, pl).Elem()
	// any other value with pointers: copy it out (whether the data word
	// holds it or points to it depends on its shape), then box the copy
	c.bytes += int64(ep.size)
	value(dst, pl).Set(c.boxed(e, ep))
}

func (c *copier) slice(s sliceHeader, pl *plan) sliceHeader {
	if s.data == nil {
		return s
	}
	k := sliceKey{s.data, s.len, s.cap, pl}
	if d, ok := c.slices[k]; ok {
		return d
	}
	d := reflect.MakeSlice(pl.t, s.len, s.cap)
	if c.slices == nil {
		c.slices = map[sliceKey]sliceHeader{}
	}
	h := sliceHeader{d.UnsafePointer(), s.len, s.cap}
	c.slices[k] = h
	c.grow(int64(s.cap) * int64(pl.elem.size))
	reflect.Copy(d, reflect.NewAt(pl.t, unsafe.Pointer(&s)).Elem())
	if el := pl.elem; el.deep {
		for i := 0; i < s.len; i++ {
			off := uintptr(i) * el.size
			if !zeroFields(unsafe.Add(s.data, off), el) {
				c.fix(unsafe.Add(h.data, off), unsafe.Add(s.data, off), el)
			}
		}
	}
	return h
}

func (c *copier) mapCopy(src reflect.Value, pl *plan) reflect.Value {
	mp := src.UnsafePointer()
	if d, ok := c.maps[mp]; ok {
		return d
	}
	t := pl.t
	d := reflect.MakeMapWithSize(t, src.Len())
	if c.maps == nil {
		c.maps = map[unsafe.Pointer]reflect.Value{}
	}
	c.maps[mp] = d
	c.grow(int64(src.Len()) * int64(t.Key().Size()+t.Elem().Size()+8))
	// each key and value is read into a variable of its own, and a deep
	// one copied into another, which SetMapIndex copies into the map: no
	// allocation per entry but the copy's own
	k, kc := entry(t.Key())
	v, vc := entry(t.Elem())
	it := src.MapRange()
	for it.Next() {
		k.SetIterKey(it)
		v.SetIterValue(it)
		d.SetMapIndex(c.entryCopy(k, kc), c.entryCopy(v, vc))
	}
	return d
}

// entryHolder is an addressable variable of a map's key or value type,
// with the plan of that type.
type entryHolder struct {
	v  reflect.Value
	pl *plan
}

// entry makes the variables mapCopy reads a key or value into (src) and,
// for a type with pointers, copies it into (dst, else invalid).
func entry(t reflect.Type) (src reflect.Value, dst entryHolder) {
	src = reflect.New(t).Elem()
	if pl := planOf(t); pl.deep {
		dst = entryHolder{reflect.New(t).Elem(), pl}
	}
	return src, dst
}

// entryCopy is the copy of src, a key or value read from a map: src
// itself when its type holds no pointers, else dst made a copy of it.
func (c *copier) entryCopy(src reflect.Value, dst entryHolder) reflect.Value {
	if dst.pl == nil {
		return src
	}
	dst.v.Set(src)
	c.fix(dst.v.Addr().UnsafePointer(), src.Addr().UnsafePointer(), dst.pl)
	return dst.v
}

// boxed copies a value that cannot be addressed (what an interface holds).
func (c *copier) boxed(v reflect.Value, pl *plan) reflect.Value {
	tmp := reflect.New(pl.t)
	tmp.Elem().Set(v)
	out := reflect.New(pl.t)
	out.Elem().Set(v)
	c.fix(out.UnsafePointer(), tmp.UnsafePointer(), pl)
	return out.Elem()
}

var closures sync.Map // code pointer -> bool

// closure says whether a function value may carry state. Only a
// package-level function (named path/pkg.Name) is known not to: a
// function literal is named pkg.outer.funcN and a method value
// pkg.(*T).M-fm, or pkg.(*T).M in the browser build, which names the
// wrapper after the method.
func closure(pc uintptr) bool {
	if v, ok := closures.Load(pc); ok {
		return v.(bool)
	}
	name := funcName(pc)
	if i := strings.IndexByte(name, '['); i >= 0 {
		name = name[:i] // a generic function's type arguments
	}
	name = name[strings.LastIndexByte(name, '/')+1:]
	yes := strings.Count(name, ".") != 1 || strings.ContainsAny(name, "()-")
	closures.Store(pc, yes)
	return yes
}

func funcName(pc uintptr) string {
	if f := runtime.FuncForPC(pc); f != nil {
		return f.Name()
	}
	return fmt.Sprintf("func at %#x", pc)
}
