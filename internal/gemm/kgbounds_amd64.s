// Hand-written (AVX-512F): chordBoundsAVX512, the 8-lane twin of
// chordBound1. Indices are 32-bit, in Y0…Y9 (VEX-encoded integer
// operations, no AVX-512VL needed); values in Z10…Z31.

//go:build amd64

#include "textflag.h"

DATA kgbc<>+0(SB)/8, $0x01a56e1fc2f8f359  // 1e-300
DATA kgbc<>+8(SB)/8, $0x4030000000000000  // 16
DATA kgbc<>+16(SB)/8, $0x4060000000000000 // 128
DATA kgbc<>+24(SB)/8, $0x7fffffffffffffff // every bit but the sign
GLOBL kgbc<>(SB), RODATA|NOPTR, $32

// PSI sets out to the table's chord at x (Z, lanes of K7): i =
// uint8(int32(x)), tab[i][0] + (x − i)·tab[i][1]. Uses Y5, Z14, Z30, Z31, K1.
#define PSI(x, out) \
	VCVTTPD2DQ x, Y5 \
	VPAND Y6, Y5, Y5 \
	VCVTDQ2PD Y5, Z14 \
	VPSLLD $1, Y5, Y5 \
	KMOVW K7, K1 \
	VGATHERDPD (R13)(Y5*8), K1, Z30 \
	KMOVW K7, K1 \
	VGATHERDPD 8(R13)(Y5*8), K1, Z31 \
	VSUBPD Z14, x, Z14 \
	VMULPD Z31, Z14, Z14 \
	VADDPD Z14, Z30, out

// func chordBoundsAVX512(dst, h, b *float64, mo, bo, bi *int32, n, k, bs int, tab *[256][2]float64)
TEXT ·chordBoundsAVX512(SB), NOSPLIT, $0-80
	MOVQ dst+0(FP), DI
	MOVQ h+8(FP), SI
	MOVQ b+16(FP), DX
	MOVQ mo+24(FP), R8
	MOVQ bo+32(FP), R9
	MOVQ bi+40(FP), R10
	MOVQ n+48(FP), CX
	MOVQ k+56(FP), R11
	MOVQ bs+64(FP), R12
	MOVQ tab+72(FP), R13

	VBROADCASTSD kgbc<>+0(SB), Z10
	VBROADCASTSD kgbc<>+8(SB), Z11
	VBROADCASTSD kgbc<>+16(SB), Z12
	VPBROADCASTQ kgbc<>+24(SB), Z13
	MOVL $255, AX
	VPBROADCASTD AX, Z6
	VPBROADCASTD R12, Z7
	MOVL $1, AX
	VPBROADCASTD AX, Z8
	XORQ AX, AX // sets done

group:
	// K7: the sets AX … AX+7 that exist.
	MOVQ CX, BX
	SUBQ AX, BX
	MOVL $0xff, R14
	CMPQ BX, $8
	JGE  full
	MOVL $1, R14
	MOVQ CX, R15
	MOVQ BX, CX
	SHLL CX, R14
	MOVQ R15, CX
	DECL R14

full:
	KMOVW R14, K7
	VMOVDQU32.Z (R8)(AX*4), K7, Z0  // mo
	VMOVDQU32.Z (R9)(AX*4), K7, Z1  // bo
	VMOVDQU32.Z (R10)(AX*4), K7, Z2 // bi
	VPADDD Y2, Y0, Y3
	KMOVW K7, K1
	VGATHERDPD (SI)(Y3*8), K1, Z16  // mb
	VPMULLD Y7, Y2, Y4
	VPADDD Y1, Y4, Y4
	KMOVW K7, K1
	VGATHERDPD (DX)(Y4*8), K1, Z17  // bb
	VPXORQ Z18, Z18, Z18            // sum0
	VPXORQ Z19, Z19, Z19            // sum1
	VPXORQ Z20, Z20, Z20            // dmax0
	VPXORQ Z21, Z21, Z21            // dmax1
	VMOVAPD Z12, Z22                // xmin0
	VMOVAPD Z12, Z23                // xmin1
	VMOVDQA Y0, Y3                  // mo + a
	VMOVDQA Y1, Y4                  // bo + a·bs
	MOVQ R11, BX

arm:
	KMOVW K7, K1
	VGATHERDPD (SI)(Y3*8), K1, Z24  // mu_a
	KMOVW K7, K1
	VGATHERDPD (DX)(Y4*8), K1, Z25  // b_a
	VSUBPD Z24, Z16, Z26            // g
	VSUBPD Z17, Z25, Z27
	VPANDQ Z13, Z27, Z27
	VADDPD Z10, Z27, Z27            // d
	VDIVPD Z27, Z26, Z28
	VMULPD Z11, Z28, Z28
	VMINPD Z28, Z12, Z28            // x = min(16·g/d, 128), NaN kept
	PSI(Z28, Z29)
	VMULPD Z29, Z27, Z29            // d·ψ(x)
	VCMPPD $0x1e, Z17, Z25, K2      // b_a > b_best: side 1
	KNOTW K2, K3
	VADDPD Z29, Z19, K2, Z19
	VADDPD Z29, Z18, K3, Z18
	VMAXPD Z27, Z21, K2, Z21
	VMAXPD Z27, Z20, K3, Z20
	VCMPPD $4, Z17, Z25, K4         // b_a ≠ b_best (true for NaN)
	KANDW K2, K4, K5
	KANDW K3, K4, K6
	VMINPD Z28, Z23, K5, Z23
	VMINPD Z28, Z22, K6, Z22
	VPADDD Y8, Y3, Y3
	VPADDD Y7, Y4, Y4
	DECQ BX
	JNZ  arm

	// min(sum_s, dmax_s·ψ(xmin_s)), the sum's NaN kept; side 0 + side 1.
	PSI(Z22, Z29)
	VMULPD Z29, Z20, Z29
	VMINPD Z18, Z29, Z24
	PSI(Z23, Z29)
	VMULPD Z29, Z21, Z29
	VMINPD Z19, Z29, Z25
	VADDPD Z25, Z24, Z24
	VMOVUPD Z24, K7, (DI)(AX*8)
	ADDQ $8, AX
	CMPQ AX, CX
	JLT  group
	VZEROUPPER
	RET
