package main

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"strings"
)

// benchBrowser runs one of the site's browser benchmarks (BenchmarkBrowser
// for -browser, BenchmarkLessonPages for -pages) and prints its figures,
// the lines its log starts with "bench: ", as they come.
func benchBrowser(flag, name, timeout string) error {
	if _, err := os.Stat("/usr/bin/chromium"); err != nil {
		return fmt.Errorf("%s needs Chromium at /usr/bin/chromium (apt-get install chromium)", flag)
	}
	cmd := exec.Command("go", "test", "./site/browser", "-run", "^$", "-bench", "^"+name+"$", "-benchtime", "1x", "-count=1", "-v", "-timeout", timeout)
	var out bytes.Buffer
	cmd.Stdout = &out
	cmd.Stderr = &out
	err := cmd.Run()
	printed := 0
	sc := bufio.NewScanner(bytes.NewReader(out.Bytes()))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if _, fig, ok := strings.Cut(line, "bench: "); ok && strings.Contains(line, ".go:") {
			fmt.Println("browser:", fig)
			printed++
		}
	}
	if err != nil || printed == 0 {
		var why []string
		for _, l := range strings.Split(out.String(), "\n") {
			if strings.Contains(l, "_test.go:") && !strings.Contains(l, "bench: ") && !strings.Contains(l, "screenshot") {
				why = append(why, strings.TrimSpace(l))
			}
		}
		return fmt.Errorf("the browser bench failed (%v): %s", err, strings.Join(why, "; "))
	}
	return nil
}
