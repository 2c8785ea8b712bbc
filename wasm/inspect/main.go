//go:build js && wasm

// Command inspect is inspect.wasm, the second module of the site: what
// scripts/inspect does natively, for a broker's vhost folder the reader
// drops on a widget's Files view, and the reading of any file's bytes
// field by field (engine/store/format.Annotate). The engine's worker loads
// it beside warren.wasm only when a folder is dropped or a reader opens a
// file's bytes (site/static/widget/engine-worker.js), so that warren.wasm,
// which every widget downloads, stays within its size budget: the
// annotator would cost it about 12 kB of brotli and 22 kB of gzip. It
// installs `warrenInspect`:
//
//	openFolder(id, files)    → JSON {"root", "skipped", "report", "problems":
//	                                 [{"file", "error"}], "files": [{"path",
//	                                 "kind", "size", "error"?}]}: the folder
//	                                 given as [[path, Uint8Array], ...], read
//	                                 as scripts/inspect reads it and kept,
//	                                 read-only, for the widget of simulation
//	                                 id until its next folder or closeFolder
//	folderBytes(id, path)    → JSON as annotate's, of a file of it
//	annotate(fileBytes)      → JSON {"path", "kind", "size", "synced",
//	                                 "annotation"}: a file of the simulated
//	                                 node's disk read field by field (engine/
//	                                 store/format.Annotate), from what
//	                                 warren's fileBytes answered (parsed);
//	                                 the Files view draws it
//	recoverFolder(id, defs)  → JSON {"vhost", "named", "queues": [{"name",
//	                                 "assumed", "dirs", "args", "messages",
//	                                 "lost"}], "gone", "why", "script"}: the
//	                                 open folder started as RabbitMQ 3.10.8
//	                                 would on boot (engine/boot), named by
//	                                 the definitions defs (JSON, or "")
//	closeFolder(id)          → true if a folder was open
//
// A function that fails returns {error}.
package main

import (
	"syscall/js"

	"warren/engine/store/inspect"
)

func main() {
	s := &server{folders: map[int]*inspect.Folder{}}
	api := js.Global().Get("Object").New()
	api.Set("openFolder", js.FuncOf(func(_ js.Value, args []js.Value) any {
		return answer(func() (string, error) {
			id, err := idArg(args)
			if err != nil {
				return "", err
			}
			files, err := filesArg(args)
			if err != nil {
				return "", err
			}
			return s.openFolder(id, files)
		})
	}))
	api.Set("folderBytes", js.FuncOf(func(_ js.Value, args []js.Value) any {
		return answer(func() (string, error) {
			id, err := idArg(args)
			if err != nil {
				return "", err
			}
			if len(args) < 2 || args[1].Type() != js.TypeString {
				return "", errorf("argument 2 (path) must be a string")
			}
			return s.folderBytes(id, args[1].String())
		})
	}))
	api.Set("annotate", js.FuncOf(func(_ js.Value, args []js.Value) any {
		return answer(func() (string, error) {
			f, err := fileBytesArg(args)
			if err != nil {
				return "", err
			}
			return annotate(f)
		})
	}))
	api.Set("recoverFolder", js.FuncOf(func(_ js.Value, args []js.Value) any {
		return answer(func() (string, error) {
			id, err := idArg(args)
			if err != nil {
				return "", err
			}
			defs := ""
			if len(args) >= 2 && args[1].Type() == js.TypeString {
				defs = args[1].String()
			}
			return s.recoverFolder(id, defs)
		})
	}))
	api.Set("closeFolder", js.FuncOf(func(_ js.Value, args []js.Value) any {
		id, err := idArg(args)
		if err != nil {
			return false
		}
		return s.closeFolder(id)
	}))
	api.Set("ready", true)
	js.Global().Set("warrenInspect", api)
	select {} // serve calls until the worker goes away
}

// answer runs fn and gives JavaScript its text or {error}; a panic, which a
// damaged file must never cause, is an error too.
func answer(fn func() (string, error)) (v any) {
	errObj := func(msg string) any {
		o := js.Global().Get("Object").New()
		o.Set("error", msg)
		return o
	}
	defer func() {
		if r := recover(); r != nil {
			v = errObj("internal error reading the folder: " + errorf("%v", r).Error())
		}
	}()
	s, err := fn()
	if err != nil {
		return errObj(err.Error())
	}
	return s
}

func idArg(args []js.Value) (int, error) {
	if len(args) < 1 || args[0].Type() != js.TypeNumber {
		return 0, errorf("argument 1 (id) must be a simulation's number")
	}
	return args[0].Int(), nil
}

// fileBytesArg reads what warren's fileBytes answered, parsed: {path,
// kind, size, synced, perSegment, dead, data}.
func fileBytesArg(args []js.Value) (fileBytes, error) {
	if len(args) < 1 || args[0].Type() != js.TypeObject {
		return fileBytes{}, errorf("annotate: argument 1 must be what warren's fileBytes answered")
	}
	o := args[0]
	str := func(k string) (string, error) {
		if v := o.Get(k); v.Type() == js.TypeString {
			return v.String(), nil
		}
		return "", errorf("annotate: fileBytes.%s must be a string", k)
	}
	num := func(k string) (int64, error) {
		if v := o.Get(k); v.Type() == js.TypeNumber {
			return int64(v.Float()), nil
		}
		return 0, errorf("annotate: fileBytes.%s must be a number", k)
	}
	var f fileBytes
	var err error
	var per int64
	for _, s := range []struct {
		k string
		p *string
	}{{"path", &f.Path}, {"kind", &f.Kind}, {"data", &f.Data}} {
		if *s.p, err = str(s.k); err != nil {
			return f, err
		}
	}
	for _, n := range []struct {
		k string
		p *int64
	}{{"size", &f.Size}, {"synced", &f.Synced}, {"perSegment", &per}} {
		if *n.p, err = num(n.k); err != nil {
			return f, err
		}
	}
	f.PerSegment = int(per)
	dead := o.Get("dead")
	if !js.Global().Get("Array").Call("isArray", dead).Bool() {
		return f, errorf("annotate: fileBytes.dead must be an array of offsets")
	}
	for i := range dead.Length() {
		if d := dead.Index(i); d.Type() == js.TypeNumber {
			f.Dead = append(f.Dead, int64(d.Float()))
		}
	}
	return f, nil
}

// filesArg reads an array of [path, Uint8Array] pairs: the files of a
// dropped folder. It stops before copying more than inspect.MaxFolderBytes.
func filesArg(args []js.Value) ([]inspect.NamedFile, error) {
	if len(args) < 2 || !js.Global().Get("Array").Call("isArray", args[1]).Bool() {
		return nil, errorf("argument 2 (files) must be an array of [path, bytes] pairs")
	}
	list := args[1]
	n := list.Length()
	out := make([]inspect.NamedFile, 0, n)
	total := 0
	u8 := js.Global().Get("Uint8Array")
	for k := 0; k < n; k++ {
		pair := list.Index(k)
		if pair.Type() != js.TypeObject || pair.Length() != 2 || pair.Index(0).Type() != js.TypeString || !pair.Index(1).InstanceOf(u8) {
			return nil, errorf("argument 2 (files): item %d must be [path, Uint8Array]", k)
		}
		p, data := pair.Index(0).String(), pair.Index(1)
		size := data.Length()
		if total += size; total > inspect.MaxFolderBytes {
			return nil, errorf("the files hold more than %d MB; open a smaller folder", inspect.MaxFolderBytes>>20)
		}
		buf := make([]byte, size)
		js.CopyBytesToGo(buf, data)
		out = append(out, inspect.NamedFile{Path: p, Data: buf})
	}
	return out, nil
}
