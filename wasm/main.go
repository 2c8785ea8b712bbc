//go:build js && wasm

package main

import (
	"github.com/hack-pad/safejs"
)

func main() {
	tuneGC()
	if err := install(newBridge()); err != nil {
		// Nothing else can report it: say so on the page's console.
		if console, cerr := safejs.Global().Get("console"); cerr == nil {
			_, _ = console.Call("error", "warren: the bridge did not start: "+err.Error())
		}
		return
	}
	select {} // serve calls from JavaScript until the page goes away
}
