//go:build !(linux || darwin || freebsd || netbsd || openbsd)

package npy

import (
	"errors"
	"os"
)

const canMap = false

func mapFile(*os.File, int64) ([]byte, error) { return nil, errors.New("no mapping on this system") }

func unmap([]byte) error { return nil }

func release([]byte) error { return nil }
