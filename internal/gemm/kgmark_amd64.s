// Hand-written (AVX-512F): scaleColsMarkAVX512, ScaleColsMark's calls of
// MarkAbove and ScaleColsRange in one pass over 8 columns at a time.

//go:build amd64

#include "textflag.h"

DATA kgmc<>+0(SB)/8, $0x7fffffffffffffff // MaxInt64, every bit but the sign
DATA kgmc<>+8(SB)/8, $0x8000000000000000 // MinInt64
GLOBL kgmc<>(SB), RODATA|NOPTR, $16

// func scaleColsMarkAVX512(x, s, r, mu *float64, live *uint8, best, k, m int, c, f float64)
TEXT ·scaleColsMarkAVX512(SB), NOSPLIT, $0-80
	MOVQ x+0(FP), DI
	MOVQ s+8(FP), SI
	MOVQ r+16(FP), DX
	MOVQ mu+24(FP), R8
	MOVQ live+32(FP), R9
	MOVQ best+40(FP), R10
	MOVQ k+48(FP), R15
	MOVQ m+56(FP), CX
	VBROADCASTSD c+64(FP), Z12
	VBROADCASTSD f+72(FP), Z1
	VPBROADCASTQ kgmc<>+0(SB), Z2 // MaxInt64
	VPBROADCASTQ kgmc<>+8(SB), Z3 // MinInt64
	MOVQ CX, R14
	SHLQ $3, R14                  // row stride in bytes
	MOVQ R10, R12
	IMULQ R14, R12                // best's row offset in bytes
	XORQ AX, AX                   // columns done

group:
	// K1: the columns AX … AX+7 that exist.
	MOVQ CX, BX
	SUBQ AX, BX
	MOVL $0xff, R13
	CMPQ BX, $8
	JGE  full
	MOVL $1, R13
	MOVQ CX, R11
	MOVQ BX, CX
	SHLL CX, R13
	MOVQ R11, CX
	DECL R13

full:
	KMOVW R13, K1
	VMOVUPD.Z (SI)(AX*8), K1, Z4  // s
	LEAQ (DI)(AX*8), R11          // x[0][AX]
	VMOVUPD.Z (R11)(R12*1), K1, Z9
	VMULPD Z4, Z9, Z9             // y = x[best]·s
	VMOVDQA64 Z2, Z5              // lo
	VMOVDQA64 Z3, Z6              // hi
	KXORW K5, K5, K5              // live
	XORQ BX, BX                   // row a

row:
	VMOVUPD.Z (R11), K1, Z7
	VMULPD Z4, Z7, Z7
	VMOVUPD Z7, K1, (R11)
	VPSRAQ $63, Z7, Z8
	VPANDQ Z2, Z8, Z8
	VPXORQ Z7, Z8, Z8             // key
	VPMINSQ Z8, Z5, Z5
	VPMAXSQ Z8, Z6, Z6
	CMPQ BX, R10
	JEQ  skip
	VSUBPD Z9, Z7, Z10
	VPANDQ Z2, Z10, Z10
	VMULPD Z12, Z10, Z10          // c·|x·s − y|
	VMOVSD (R8)(R10*8), X11
	VSUBSD (R8)(BX*8), X11, X11   // g = mu[best] − mu[a]
	VBROADCASTSD X11, Z11
	VCMPPD $0x1e, Z11, Z10, K1, K4 // c·|…| > g (false for NaN)
	KORW K4, K5, K5

skip:
	ADDQ R14, R11
	INCQ BX
	CMPQ BX, R15
	JLT  row

	VPSRAQ $63, Z5, Z8
	VPANDQ Z2, Z8, Z8
	VPXORQ Z5, Z8, Z5             // lo's value
	VPSRAQ $63, Z6, Z8
	VPANDQ Z2, Z8, Z8
	VPXORQ Z6, Z8, Z6             // hi's value
	VSUBPD Z5, Z6, Z6
	VMULPD Z1, Z6, Z6
	VMOVUPD Z6, K1, (DX)(AX*8)

	// live: 4 columns a byte.
	KMOVW K5, R11
	MOVQ AX, R13
	SHRQ $2, R13
	MOVL R11, BX
	ANDL $0x0f, BX
	MOVB BX, (R9)(R13*1)
	MOVQ CX, BX
	SUBQ AX, BX
	CMPQ BX, $4
	JLE  next
	SHRL $4, R11
	ANDL $0x0f, R11
	MOVB R11, 1(R9)(R13*1)

next:
	ADDQ $8, AX
	CMPQ AX, CX
	JLT  group
	VZEROUPPER
	RET
