// Hand-written (AVX-512F, POPCNT): slopeKeysAVX512, the 16-lane twin of
// slopeKeysGo.

//go:build amd64

#include "textflag.h"

DATA skc<>+0(SB)/8, $0x7fffffffffffffff  // MaxInt64, and every bit but the sign
DATA skc<>+8(SB)/8, $0x4020000000000000  // 8.0
DATA skc<>+16(SB)/8, $0xfffffffffffffff0 // ^15
GLOBL skc<>(SB), RODATA|NOPTR, $24

DATA ska<>+0(SB)/8, $0
DATA ska<>+8(SB)/8, $1
DATA ska<>+16(SB)/8, $2
DATA ska<>+24(SB)/8, $3
DATA ska<>+32(SB)/8, $4
DATA ska<>+40(SB)/8, $5
DATA ska<>+48(SB)/8, $6
DATA ska<>+56(SB)/8, $7
DATA ska<>+64(SB)/8, $8
DATA ska<>+72(SB)/8, $9
DATA ska<>+80(SB)/8, $10
DATA ska<>+88(SB)/8, $11
DATA ska<>+96(SB)/8, $12
DATA ska<>+104(SB)/8, $13
DATA ska<>+112(SB)/8, $14
DATA ska<>+120(SB)/8, $15
GLOBL ska<>(SB), RODATA|NOPTR, $128

// func slopeKeysAVX512(keys *[16]int64, mu, b *float64, k, best int) int
TEXT ·slopeKeysAVX512(SB), NOSPLIT, $0-48
	MOVQ keys+0(FP), DI
	MOVQ mu+8(FP), SI
	MOVQ b+16(FP), DX
	MOVQ k+24(FP), CX
	MOVQ best+32(FP), BX

	// K1, K2: the arms 0…7 and 8…15 that exist; K5, K6: best among them.
	MOVL $1, AX
	SHLL CX, AX
	DECL AX
	KMOVW AX, K1
	KSHIFTRW $8, K1, K2
	MOVL $1, R8
	MOVQ BX, CX
	SHLL CX, R8
	KMOVW R8, K5
	KSHIFTRW $8, K5, K6

	VBROADCASTSD (SI)(BX*8), Z0 // mu[best]
	VBROADCASTSD (DX)(BX*8), Z1 // b[best]
	VPBROADCASTQ skc<>+0(SB), Z7

	// arms 0…7
	VMOVUPD.Z (SI), K1, Z2
	VMOVUPD.Z (DX), K1, Z3
	VSUBPD Z2, Z0, Z4                // mu[best] − mu[a]
	VSUBPD Z1, Z3, Z5                // b[a] − b[best]
	VPANDQ Z7, Z5, Z5                // |·|
	VMULPD.BCST skc<>+8(SB), Z5, Z5  // 8·|·|
	VCMPPD $1, Z5, Z4, K1, K3        // <, existing arms only
	KORW K5, K3, K3                  // or a = best
	VPSRAQ $63, Z3, Z6
	VPSRLQ $1, Z6, Z6
	VPXORQ Z3, Z6, Z6                // the order of b[a] as an int64
	VPANDQ.BCST skc<>+16(SB), Z6, Z6
	VPORQ ska<>+0(SB), Z6, Z6        // a in the low 4 bits
	VMOVDQA64 Z7, Z8
	VMOVDQA64 Z6, K3, Z8             // MaxInt64 where the test fails
	VMOVDQU64 Z8, (DI)

	// arms 8…15
	VMOVUPD.Z 64(SI), K2, Z2
	VMOVUPD.Z 64(DX), K2, Z3
	VSUBPD Z2, Z0, Z4
	VSUBPD Z1, Z3, Z5
	VPANDQ Z7, Z5, Z5
	VMULPD.BCST skc<>+8(SB), Z5, Z5
	VCMPPD $1, Z5, Z4, K2, K4
	KORW K6, K4, K4
	VPSRAQ $63, Z3, Z6
	VPSRLQ $1, Z6, Z6
	VPXORQ Z3, Z6, Z6
	VPANDQ.BCST skc<>+16(SB), Z6, Z6
	VPORQ ska<>+64(SB), Z6, Z6
	VMOVDQA64 Z7, Z8
	VMOVDQA64 Z6, K4, Z8
	VMOVDQU64 Z8, 64(DI)

	KMOVW K3, AX
	KMOVW K4, R8
	ANDL $0xff, AX
	ANDL $0xff, R8
	POPCNTL AX, AX
	POPCNTL R8, R8
	ADDL R8, AX
	MOVQ AX, ret+40(FP)
	VZEROUPPER
	RET
