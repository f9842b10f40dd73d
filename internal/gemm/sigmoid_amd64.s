// Hand-written (AVX-512F, FMA): sigmoidAVX512, the 8-lane twin of sigmoid1
// for |x| ≤ 700. The constants are math/exp_amd64.s's, as float64 bits (the
// first 16 of normloss_amd64.s's table, at the same offsets), and Exp's
// operations are those of its fused path, in their order, as in
// normalLossAVX512.

#include "textflag.h"
#include "exp_amd64.h"

EXP_DATA(sgc)
DATA sgc<>+128(SB)/8, $0x0000000000000000 // zero
GLOBL sgc<>(SB), RODATA|NOPTR, $136

// func sigmoidAVX512(dst, x *float64, n int)
// n > 0, a multiple of 8; every |x| ≤ 700.
TEXT ·sigmoidAVX512(SB), NOSPLIT, $0-24
	MOVQ dst+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ n+16(FP), CX

loop:
	VMOVUPD (SI), Z0
	// u = Exp(−|x|): Exp(−x) for x ≥ 0, Exp(x) for x < 0
	VPORQ.BCST sgc<>+8(SB), Z0, Z3
	EXP_AVX512(sgc, Z3, Z4, Z20, Y21, Z22)
	// s = 1 + u; x ≥ 0: 1/s, else u/s
	VADDPD.BCST sgc<>+104(SB), Z4, Z5
	VBROADCASTSD sgc<>+104(SB), Z6
	VDIVPD Z5, Z6, Z6
	VDIVPD Z5, Z4, Z7
	VCMPPD.BCST $0x0d, sgc<>+128(SB), Z0, K1
	VMOVAPD Z6, K1, Z7
	VMOVUPD Z7, (DI)
	ADDQ $64, SI
	ADDQ $64, DI
	SUBQ $8, CX
	JNZ  loop
	VZEROUPPER
	RET
