//go:build !amd64 || amd64.v3

package xmath

const mathUnfused = false
