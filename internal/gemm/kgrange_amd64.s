// Hand-written (AVX-512F): scaleColsRangeAVX512, the 8-column twin of
// ScaleColsRange's Go loop.

//go:build amd64

#include "textflag.h"

DATA kgrc<>+0(SB)/8, $0x7fffffffffffffff // MaxInt64
DATA kgrc<>+8(SB)/8, $0x8000000000000000 // MinInt64
GLOBL kgrc<>(SB), RODATA|NOPTR, $16

// func scaleColsRangeAVX512(x, s, r *float64, k, m int, f float64)
TEXT ·scaleColsRangeAVX512(SB), NOSPLIT, $0-48
	MOVQ x+0(FP), DI
	MOVQ s+8(FP), SI
	MOVQ r+16(FP), DX
	MOVQ k+24(FP), R8
	MOVQ m+32(FP), CX
	VBROADCASTSD f+40(FP), Z1
	VPBROADCASTQ kgrc<>+0(SB), Z2 // MaxInt64
	VPBROADCASTQ kgrc<>+8(SB), Z3 // MinInt64
	MOVQ CX, R9
	SHLQ $3, R9                   // row stride in bytes
	XORQ AX, AX                   // columns done

group:
	// K1: the columns AX … AX+7 that exist.
	MOVQ CX, BX
	SUBQ AX, BX
	MOVL $0xff, R10
	CMPQ BX, $8
	JGE  full
	MOVL $1, R10
	MOVQ CX, R11
	MOVQ BX, CX
	SHLL CX, R10
	MOVQ R11, CX
	DECL R10

full:
	KMOVW R10, K1
	VMOVUPD.Z (SI)(AX*8), K1, Z4 // s
	VMOVDQA64 Z2, Z5             // lo
	VMOVDQA64 Z3, Z6             // hi
	LEAQ (DI)(AX*8), R11         // x[0][AX]
	MOVQ R8, BX

row:
	VMOVUPD.Z (R11), K1, Z7
	VMULPD Z4, Z7, Z7
	VMOVUPD Z7, K1, (R11)
	VPSRAQ $63, Z7, Z8
	VPANDQ Z2, Z8, Z8
	VPXORQ Z7, Z8, Z8            // key
	VPMINSQ Z8, Z5, Z5
	VPMAXSQ Z8, Z6, Z6
	ADDQ R9, R11
	DECQ BX
	JNZ  row

	VPSRAQ $63, Z5, Z8
	VPANDQ Z2, Z8, Z8
	VPXORQ Z5, Z8, Z5            // lo's value
	VPSRAQ $63, Z6, Z8
	VPANDQ Z2, Z8, Z8
	VPXORQ Z6, Z8, Z6            // hi's value
	VSUBPD Z5, Z6, Z6
	VMULPD Z1, Z6, Z6
	VMOVUPD Z6, K1, (DX)(AX*8)
	ADDQ $8, AX
	CMPQ AX, CX
	JLT  group
	VZEROUPPER
	RET
