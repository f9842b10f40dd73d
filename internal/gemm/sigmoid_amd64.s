// Hand-written (AVX-512F, FMA): sigmoidAVX512, the 8-lane twin of sigmoid1
// for |x| ≤ 700. The constants are math/exp_amd64.s's, as float64 bits (the
// first 16 of normloss_amd64.s's table, at the same offsets), and Exp's
// operations are those of its fused path, in their order, as in
// normalLossAVX512.

#include "textflag.h"
#include "exp_amd64.h"

DATA sgc<>+0(SB)/8, $0x3ff6a09e667f3bcd // sqrt2
DATA sgc<>+8(SB)/8, $0x8000000000000000 // signbit
DATA sgc<>+16(SB)/8, $0x3fe0000000000000 // half
DATA sgc<>+24(SB)/8, $0x3ff71547652b82fe // LOG2E
DATA sgc<>+32(SB)/8, $0x3fe62e42fefa3000 // LN2U
DATA sgc<>+40(SB)/8, $0x3d53de6af278ece6 // LN2L
DATA sgc<>+48(SB)/8, $0x3fb0000000000000 // c0625
DATA sgc<>+56(SB)/8, $0x3efa01a01a01a01a // e8
DATA sgc<>+64(SB)/8, $0x3f2a01a01a01a01a // e7
DATA sgc<>+72(SB)/8, $0x3f56c16c16c16c17 // e6
DATA sgc<>+80(SB)/8, $0x3f81111111111111 // e5
DATA sgc<>+88(SB)/8, $0x3fa5555555555555 // e4
DATA sgc<>+96(SB)/8, $0x3fc5555555555555 // e3
DATA sgc<>+104(SB)/8, $0x3ff0000000000000 // one
DATA sgc<>+112(SB)/8, $0x4000000000000000 // two
DATA sgc<>+120(SB)/8, $0x00000000000003ff // bias
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
