// Hand-written (AVX): dotRowsAVX and dotRows2AVX, inner products in the order of gonum's
// amd64 DotUnitary (internal/asm/f64/dot_amd64.s): per pair, lanes r of a
// YMM accumulator hold the SSE2 code's partial sums s_r (its X7 = s0, s1
// and X8 = s2, s3), each product rounded before its sum; the last 1–3
// terms go into s0; then (s1 + s3) + (s0 + s2). Every operation keeps
// its operands in DotUnitary's places (the product x·y, the sum acc + term,
// (s0, s1) + (s2, s3), then b + a), which also decides the bits of a NaN.

//go:build amd64

#include "textflag.h"

// func dotRowsAVX(dst, x, y *float64, w, cnt int)
TEXT ·dotRowsAVX(SB), NOSPLIT, $0-40
	MOVQ dst+0(FP), DX
	MOVQ x+8(FP), DI
	MOVQ y+16(FP), SI
	MOVQ w+24(FP), R11
	MOVQ cnt+32(FP), CX
	MOVQ R11, R8
	SHRQ $2, R8          // whole blocks of four terms
	MOVQ R11, R9
	ANDQ $3, R9          // terms left
	SHLQ $3, R11         // bytes per row of y

	CMPQ CX, $4
	JLT  one

four:
	// Rows SI, AX, R13, R12 of y.
	LEAQ   (SI)(R11*1), AX
	LEAQ   (AX)(R11*1), R13
	LEAQ   (R13)(R11*1), R12
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	VXORPD Y2, Y2, Y2
	VXORPD Y3, Y3, Y3
	XORQ   BX, BX
	MOVQ   R8, R10
	TESTQ  R10, R10
	JZ     fourtail

fourloop:
	VMOVUPD (DI)(BX*1), Y4
	VMULPD  (SI)(BX*1), Y4, Y5
	VADDPD  Y5, Y0, Y0
	VMULPD  (AX)(BX*1), Y4, Y6
	VADDPD  Y6, Y1, Y1
	VMULPD  (R13)(BX*1), Y4, Y7
	VADDPD  Y7, Y2, Y2
	VMULPD  (R12)(BX*1), Y4, Y8
	VADDPD  Y8, Y3, Y3
	ADDQ    $32, BX
	DECQ    R10
	JNZ     fourloop

fourtail:
	VEXTRACTF128 $1, Y0, X9
	VEXTRACTF128 $1, Y1, X10
	VEXTRACTF128 $1, Y2, X11
	VEXTRACTF128 $1, Y3, X12
	MOVQ         R9, R10
	TESTQ        R10, R10
	JZ           fourred

fourtailloop:
	VMOVSD (DI)(BX*1), X4
	VMULSD (SI)(BX*1), X4, X5
	VADDSD X5, X0, X0
	VMULSD (AX)(BX*1), X4, X6
	VADDSD X6, X1, X1
	VMULSD (R13)(BX*1), X4, X7
	VADDSD X7, X2, X2
	VMULSD (R12)(BX*1), X4, X8
	VADDSD X8, X3, X3
	ADDQ   $8, BX
	DECQ   R10
	JNZ    fourtailloop

fourred:
	VADDPD    X9, X0, X0   // (a, b) = (s0 + s2, s1 + s3)
	VADDPD    X10, X1, X1
	VADDPD    X11, X2, X2
	VADDPD    X12, X3, X3
	VUNPCKHPD X1, X0, X4   // (b0, b1)
	VUNPCKLPD X1, X0, X5   // (a0, a1)
	VADDPD    X5, X4, X4   // (b0 + a0, b1 + a1)
	VUNPCKHPD X3, X2, X6
	VUNPCKLPD X3, X2, X7
	VADDPD    X7, X6, X6
	VMOVUPD   X4, (DX)
	VMOVUPD   X6, 16(DX)
	ADDQ      $32, DX
	LEAQ      (R12)(R11*1), SI
	SUBQ      $4, CX
	CMPQ      CX, $4
	JGE       four

one:
	TESTQ CX, CX
	JZ    done

oneagain:
	VXORPD Y0, Y0, Y0
	XORQ   BX, BX
	MOVQ   R8, R10
	TESTQ  R10, R10
	JZ     onetail

oneloop:
	VMOVUPD (DI)(BX*1), Y4
	VMULPD  (SI)(BX*1), Y4, Y5
	VADDPD  Y5, Y0, Y0
	ADDQ    $32, BX
	DECQ    R10
	JNZ     oneloop

onetail:
	VEXTRACTF128 $1, Y0, X9
	MOVQ         R9, R10
	TESTQ        R10, R10
	JZ           onered

onetailloop:
	VMOVSD (DI)(BX*1), X4
	VMULSD (SI)(BX*1), X4, X5
	VADDSD X5, X0, X0
	ADDQ   $8, BX
	DECQ   R10
	JNZ    onetailloop

onered:
	VADDPD    X9, X0, X0   // (a, b)
	VUNPCKHPD X0, X0, X4   // (b, b)
	VADDSD    X0, X4, X4   // b + a
	VMOVSD    X4, (DX)
	ADDQ      $8, DX
	ADDQ      R11, SI
	DECQ      CX
	JNZ       oneagain

done:
	VZEROUPPER
	RET

// func dotRows2AVX(dst0, dst1, x0, x1, y *float64, w, cnt int)
// cnt a positive multiple of 4: both rows against each group of four rows
// of y, eight sums in flight.
TEXT ·dotRows2AVX(SB), NOSPLIT, $0-56
	MOVQ dst0+0(FP), DX
	MOVQ dst1+8(FP), R9
	MOVQ x0+16(FP), DI
	MOVQ x1+24(FP), R8
	MOVQ y+32(FP), SI
	MOVQ w+40(FP), R11
	MOVQ cnt+48(FP), CX
	SHLQ $3, R11

two:
	LEAQ   (SI)(R11*1), AX
	LEAQ   (AX)(R11*1), R13
	LEAQ   (R13)(R11*1), R12
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	VXORPD Y2, Y2, Y2
	VXORPD Y3, Y3, Y3
	VXORPD Y4, Y4, Y4
	VXORPD Y5, Y5, Y5
	VXORPD Y6, Y6, Y6
	VXORPD Y7, Y7, Y7
	XORQ   BX, BX
	MOVQ   w+40(FP), R10
	SHRQ   $2, R10
	JZ     twotail

twoloop:
	VMOVUPD (DI)(BX*1), Y8
	VMOVUPD (R8)(BX*1), Y9
	VMOVUPD (SI)(BX*1), Y14
	VMULPD  Y14, Y8, Y10
	VADDPD  Y10, Y0, Y0
	VMULPD  Y14, Y9, Y11
	VADDPD  Y11, Y4, Y4
	VMOVUPD (AX)(BX*1), Y15
	VMULPD  Y15, Y8, Y12
	VADDPD  Y12, Y1, Y1
	VMULPD  Y15, Y9, Y13
	VADDPD  Y13, Y5, Y5
	VMOVUPD (R13)(BX*1), Y14
	VMULPD  Y14, Y8, Y10
	VADDPD  Y10, Y2, Y2
	VMULPD  Y14, Y9, Y11
	VADDPD  Y11, Y6, Y6
	VMOVUPD (R12)(BX*1), Y15
	VMULPD  Y15, Y8, Y12
	VADDPD  Y12, Y3, Y3
	VMULPD  Y15, Y9, Y13
	VADDPD  Y13, Y7, Y7
	ADDQ    $32, BX
	DECQ    R10
	JNZ     twoloop

twotail:
	// Row x0 (Y0–Y3), then row x1 (Y4–Y7), from the same term BX on.
	VEXTRACTF128 $1, Y0, X10
	VEXTRACTF128 $1, Y1, X11
	VEXTRACTF128 $1, Y2, X12
	VEXTRACTF128 $1, Y3, X13
	MOVQ         w+40(FP), R10
	ANDQ         $3, R10
	JZ           twored0

twotailloop0:
	VMOVSD (DI)(BX*1), X8
	VMULSD (SI)(BX*1), X8, X14
	VADDSD X14, X0, X0
	VMULSD (AX)(BX*1), X8, X14
	VADDSD X14, X1, X1
	VMULSD (R13)(BX*1), X8, X14
	VADDSD X14, X2, X2
	VMULSD (R12)(BX*1), X8, X14
	VADDSD X14, X3, X3
	ADDQ   $8, BX
	DECQ   R10
	JNZ    twotailloop0

twored0:
	VADDPD    X10, X0, X0
	VADDPD    X11, X1, X1
	VADDPD    X12, X2, X2
	VADDPD    X13, X3, X3
	VUNPCKHPD X1, X0, X8
	VUNPCKLPD X1, X0, X14
	VADDPD    X14, X8, X8
	VUNPCKHPD X3, X2, X10
	VUNPCKLPD X3, X2, X11
	VADDPD    X11, X10, X10
	VMOVUPD   X8, (DX)
	VMOVUPD   X10, 16(DX)

	VEXTRACTF128 $1, Y4, X10
	VEXTRACTF128 $1, Y5, X11
	VEXTRACTF128 $1, Y6, X12
	VEXTRACTF128 $1, Y7, X13
	MOVQ         w+40(FP), BX
	MOVQ         BX, R10
	SHRQ         $2, BX
	SHLQ         $5, BX          // back to the first term left
	ANDQ         $3, R10
	JZ           twored1

twotailloop1:
	VMOVSD (R8)(BX*1), X9
	VMULSD (SI)(BX*1), X9, X14
	VADDSD X14, X4, X4
	VMULSD (AX)(BX*1), X9, X14
	VADDSD X14, X5, X5
	VMULSD (R13)(BX*1), X9, X14
	VADDSD X14, X6, X6
	VMULSD (R12)(BX*1), X9, X14
	VADDSD X14, X7, X7
	ADDQ   $8, BX
	DECQ   R10
	JNZ    twotailloop1

twored1:
	VADDPD    X10, X4, X4
	VADDPD    X11, X5, X5
	VADDPD    X12, X6, X6
	VADDPD    X13, X7, X7
	VUNPCKHPD X5, X4, X8
	VUNPCKLPD X5, X4, X14
	VADDPD    X14, X8, X8
	VUNPCKHPD X7, X6, X10
	VUNPCKLPD X7, X6, X11
	VADDPD    X11, X10, X10
	VMOVUPD   X8, (R9)
	VMOVUPD   X10, 16(R9)

	ADDQ $32, DX
	ADDQ $32, R9
	LEAQ (R12)(R11*1), SI
	SUBQ $4, CX
	JNZ  two

	VZEROUPPER
	RET
