package main

// Flag parsing and the checks on output paths, shared by the commands.

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"regexp"
	"strings"

	"github.com/neural-adb/nadb/internal/fsutil"
)

// parse runs fs.Parse and turns failures into usage errors. The flag
// package's own report of the error is suppressed: main prints the error
// once, with a pointer to the flags (fs's name is the command, "nadb run"),
// instead of the whole usage text, which only -h prints.
func parse(fs *flag.FlagSet, args []string) error {
	out, usage := fs.Output(), fs.Usage
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	err := fs.Parse(args)
	fs.SetOutput(out)
	fs.Usage = usage
	switch {
	case err == flag.ErrHelp:
		if usage != nil {
			usage()
		} else {
			fmt.Fprintf(out, "usage of %s:\n", fs.Name())
			fs.PrintDefaults()
		}
		return err
	case err != nil:
		return usageError{fmt.Errorf("%w (%s -h lists the flags)", explainValue(fs, err), fs.Name())}
	case fs.NArg() > 0:
		return usageError{fmt.Errorf("unexpected argument %q (%s -h lists the flags)", fs.Arg(0), fs.Name())}
	}
	return nil
}

// badValue matches the flag package's error for a value a numeric flag
// cannot parse.
var badValue = regexp.MustCompile(`^invalid value "(.*)" for flag -([^:]+): (parse error|value out of range)$`)

// explainValue rewrites the flag package's "parse error" and "value out of
// range" for a numeric flag of fs as what the flag takes; other errors pass
// unchanged.
func explainValue(fs *flag.FlagSet, err error) error {
	m := badValue.FindStringSubmatch(err.Error())
	if m == nil {
		return err
	}
	value, name, what := m[1], m[2], m[3]
	f := fs.Lookup(name)
	if f == nil {
		return err
	}
	g, ok := f.Value.(flag.Getter)
	if !ok {
		return err
	}
	var want string
	switch g.Get().(type) {
	case uint64:
		want = fmt.Sprintf("a whole number from 0 to %d", uint64(math.MaxUint64))
	case uint:
		want = fmt.Sprintf("a whole number from 0 to %d", uint(math.MaxUint))
	case int, int64:
		want = "a whole number"
	case float64:
		want = "a number"
	default:
		return err
	}
	if what == "value out of range" {
		return fmt.Errorf("-%s: %q is out of range: need %s", name, value, want)
	}
	return fmt.Errorf("-%s: %q is not %s", name, value, want)
}

// checkOutFile reports a usage error naming flag when path cannot be written
// as a file (it is a directory, or lies below a file).
func checkOutFile(flagName, path string) error {
	if err := fsutil.CheckFile(path); err != nil {
		return usageError{fmt.Errorf("-%s: %w", flagName, err)}
	}
	return nil
}

// checkOutDir reports a usage error naming flag when path cannot be used as a
// directory (it is a file, or lies below a file).
func checkOutDir(flagName, path string) error {
	if err := fsutil.CheckDir(path); err != nil {
		return usageError{fmt.Errorf("-%s: %w", flagName, err)}
	}
	return nil
}

// firstLine returns the first line of a file, or "" if it cannot be read.
func firstLine(path string) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Scan()
	return sc.Text()
}

// refusePaperOverwrite is the usage error of a run at another scale whose
// -out holds a paper-scale result (file is what marks it as one).
func refusePaperOverwrite(flagName, file, scale string) error {
	return usageError{fmt.Errorf("-%s: %s holds a paper-scale result; a %s-scale run writes to stdout or to another file or directory named with -%s", flagName, file, scale, flagName)}
}

// guardPaperFile refuses, for a run that is not at paper scale, a target file
// whose first line marks a paper-scale result.
func guardPaperFile(flagName, path, scale, marker string) error {
	if scale != "paper" && strings.Contains(firstLine(path), marker) {
		return refusePaperOverwrite(flagName, path, scale)
	}
	return nil
}

// shellWord matches arguments that need no quoting in a POSIX shell.
var shellWord = regexp.MustCompile(`^[A-Za-z0-9_,./:=+@%-]+$`)

// invocation returns the flags of fs that were set and that keep reports,
// as they would be typed on a command line: a true boolean flag as -name,
// any other value as -name value (quoted for the shell when needed), in the
// order of the flag set's names.
func invocation(fs *flag.FlagSet, keep func(name string) bool) string {
	var b strings.Builder
	fs.Visit(func(f *flag.Flag) {
		if !keep(f.Name) {
			return
		}
		if bf, ok := f.Value.(interface{ IsBoolFlag() bool }); ok && bf.IsBoolFlag() {
			if v := f.Value.String(); v == "true" {
				fmt.Fprintf(&b, " -%s", f.Name)
			} else {
				fmt.Fprintf(&b, " -%s=%s", f.Name, v)
			}
			return
		}
		v := f.Value.String()
		if !shellWord.MatchString(v) {
			v = "'" + strings.ReplaceAll(v, "'", `'\''`) + "'"
		}
		fmt.Fprintf(&b, " -%s %s", f.Name, v)
	})
	return b.String()
}
