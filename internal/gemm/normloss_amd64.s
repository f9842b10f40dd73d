// Hand-written (AVX-512F, FMA): normalLossAVX512, the 8-lane twin of
// normalLoss1. The constants are math/erf.go's erfc coefficients and
// math/exp_amd64.s's, as float64 bits; the operations are theirs in their
// order (erfc's without fused multiply–adds, Exp's fused ones of its FMA path).

//go:build amd64 && !amd64.v3

#include "textflag.h"
#include "exp_amd64.h"

EXP_DATA(nlc)
DATA nlc<>+128(SB)/8, $0x40040d931ff62705 // sqrt2pi
DATA nlc<>+136(SB)/8, $0xbef8ead6120016ac // pp4
DATA nlc<>+144(SB)/8, $0xbf77a291236668e4 // pp3
DATA nlc<>+152(SB)/8, $0xbf9d2a51dbd7194f // pp2
DATA nlc<>+160(SB)/8, $0xbfd4cd7d691cb913 // pp1
DATA nlc<>+168(SB)/8, $0x3fc06eba8214db68 // pp0
DATA nlc<>+176(SB)/8, $0xbed09c4342a26120 // qq5
DATA nlc<>+184(SB)/8, $0x3f215dc9221c1a10 // qq4
DATA nlc<>+192(SB)/8, $0x3f74d022c4d36b0f // qq3
DATA nlc<>+200(SB)/8, $0x3fb0a54c5536ceba // qq2
DATA nlc<>+208(SB)/8, $0x3fd97779cddadc09 // qq1
DATA nlc<>+216(SB)/8, $0x3fd0000000000000 // quarter
DATA nlc<>+224(SB)/8, $0x3c70000000000000 // tiny
DATA nlc<>+232(SB)/8, $0xbf61bf380a96073f // pa6
DATA nlc<>+240(SB)/8, $0x3fa22a36599795eb // pa5
DATA nlc<>+248(SB)/8, $0xbfbc63983d3e28ec // pa4
DATA nlc<>+256(SB)/8, $0x3fd45fca805120e4 // pa3
DATA nlc<>+264(SB)/8, $0xbfd7d240fbb8c3f1 // pa2
DATA nlc<>+272(SB)/8, $0x3fda8d00ad92b34d // pa1
DATA nlc<>+280(SB)/8, $0xbf6359b8bef77538 // pa0
DATA nlc<>+288(SB)/8, $0x3f888b545735151d // qa6
DATA nlc<>+296(SB)/8, $0x3f8bedc26b51dd1c // qa5
DATA nlc<>+304(SB)/8, $0x3fc02660e763351f // qa4
DATA nlc<>+312(SB)/8, $0x3fb2635cd99fe9a7 // qa3
DATA nlc<>+320(SB)/8, $0x3fe14af092eb6f33 // qa2
DATA nlc<>+328(SB)/8, $0x3fbb3e6618eee323 // qa1
DATA nlc<>+336(SB)/8, $0x3fc3d4fa80000000 // oneMinusErx
DATA nlc<>+344(SB)/8, $0xc023a0efc69ac25c // ra7
DATA nlc<>+352(SB)/8, $0xc054526557e4d2f2 // ra6
DATA nlc<>+360(SB)/8, $0xc067135cebccabb2 // ra5
DATA nlc<>+368(SB)/8, $0xc0644cb184282266 // ra4
DATA nlc<>+376(SB)/8, $0xc04f300ae4cba38d // ra3
DATA nlc<>+384(SB)/8, $0xc0251e0441b0e726 // ra2
DATA nlc<>+392(SB)/8, $0xbfe63416e4ba7360 // ra1
DATA nlc<>+400(SB)/8, $0xbf843412600d6435 // ra0
DATA nlc<>+408(SB)/8, $0xbfaeeff2ee749a62 // sa8
DATA nlc<>+416(SB)/8, $0x401a47ef8e484a93 // sa7
DATA nlc<>+424(SB)/8, $0x405b28a3ee48ae2c // sa6
DATA nlc<>+432(SB)/8, $0x407ad02157700314 // sa5
DATA nlc<>+440(SB)/8, $0x40842b1921ec2868 // sa4
DATA nlc<>+448(SB)/8, $0x407b290dd58a1a71 // sa3
DATA nlc<>+456(SB)/8, $0x4061350c526ae721 // sa2
DATA nlc<>+464(SB)/8, $0x4033a6b9bd707687 // sa1
DATA nlc<>+472(SB)/8, $0xc07e384e9bdc383f // rb6
DATA nlc<>+480(SB)/8, $0xc09004616a2e5992 // rb5
DATA nlc<>+488(SB)/8, $0xc083ec881375f228 // rb4
DATA nlc<>+496(SB)/8, $0xc064145d43c5ed98 // rb3
DATA nlc<>+504(SB)/8, $0xc031c209555f995a // rb2
DATA nlc<>+512(SB)/8, $0xbfe993ba70c285de // rb1
DATA nlc<>+520(SB)/8, $0xbf84341239e86f4a // rb0
DATA nlc<>+528(SB)/8, $0xc03670e242712d62 // sb7
DATA nlc<>+536(SB)/8, $0x407da874e79fe763 // sb6
DATA nlc<>+544(SB)/8, $0x40a3f219cedf3be6 // sb5
DATA nlc<>+552(SB)/8, $0x40a8ffb7688c246a // sb4
DATA nlc<>+560(SB)/8, $0x409802eb189d5118 // sb3
DATA nlc<>+568(SB)/8, $0x40745cae221b9f0a // sb2
DATA nlc<>+576(SB)/8, $0x403e568b261d5190 // sb1
DATA nlc<>+584(SB)/8, $0x4006db6db6db6db7 // inv035
DATA nlc<>+592(SB)/8, $0xffffffff00000000 // hi32
DATA nlc<>+600(SB)/8, $0x3fe2000000000000 // c05625
DATA nlc<>+608(SB)/8, $0x3ff4000000000000 // c125
DATA nlc<>+616(SB)/8, $0x3feb000000000000 // c084375
GLOBL nlc<>(SB), RODATA|NOPTR, $624

// func normalLossAVX512(dst, c *float64, n int)
// n > 0, a multiple of 8; every c in [0, 37).
TEXT ·normalLossAVX512(SB), NOSPLIT, $0-24
	MOVQ dst+0(FP), DI
	MOVQ c+8(FP), SI
	MOVQ n+16(FP), CX

loop:
	VMOVUPD (SI), Z0
	// X = c/√2 (Erfc's argument), −c
	VDIVPD.BCST nlc<>+0(SB), Z0, Z1
	VPXORQ.BCST nlc<>+8(SB), Z0, Z2
	// density: Exp((−c)·c/2)/√(2π)
	VMULPD Z0, Z2, Z3
	VMULPD.BCST nlc<>+16(SB), Z3, Z3
	EXP_AVX512(nlc, Z3, Z4, Z20, Y21, Z22)
	VDIVPD.BCST nlc<>+128(SB), Z4, Z4
	// Erfc, X < 0.84375: 1 − temp
	VMULPD Z1, Z1, Z5
	VMULPD.BCST nlc<>+136(SB), Z5, Z6
	VADDPD.BCST nlc<>+144(SB), Z6, Z6
	VMULPD Z5, Z6, Z6
	VADDPD.BCST nlc<>+152(SB), Z6, Z6
	VMULPD Z5, Z6, Z6
	VADDPD.BCST nlc<>+160(SB), Z6, Z6
	VMULPD Z5, Z6, Z6
	VADDPD.BCST nlc<>+168(SB), Z6, Z6
	VMULPD.BCST nlc<>+176(SB), Z5, Z7
	VADDPD.BCST nlc<>+184(SB), Z7, Z7
	VMULPD Z5, Z7, Z7
	VADDPD.BCST nlc<>+192(SB), Z7, Z7
	VMULPD Z5, Z7, Z7
	VADDPD.BCST nlc<>+200(SB), Z7, Z7
	VMULPD Z5, Z7, Z7
	VADDPD.BCST nlc<>+208(SB), Z7, Z7
	VMULPD Z5, Z7, Z7
	VADDPD.BCST nlc<>+104(SB), Z7, Z7
	VDIVPD Z7, Z6, Z6
	VMULPD Z6, Z1, Z7
	VADDPD Z7, Z1, Z8
	VSUBPD.BCST nlc<>+16(SB), Z1, Z9
	VADDPD Z9, Z7, Z9
	VADDPD.BCST nlc<>+16(SB), Z9, Z9
	VCMPPD.BCST $1, nlc<>+216(SB), Z1, K1
	VMOVAPD Z8, K1, Z9
	VCMPPD.BCST $1, nlc<>+224(SB), Z1, K1
	VMOVAPD Z1, K1, Z9
	VBROADCASTSD nlc<>+104(SB), Z10
	VSUBPD Z9, Z10, Z10
	// Erfc, 0.84375 ≤ X < 1.25: (1 − erx) − P/Q
	VSUBPD.BCST nlc<>+104(SB), Z1, Z5
	VMULPD.BCST nlc<>+232(SB), Z5, Z6
	VADDPD.BCST nlc<>+240(SB), Z6, Z6
	VMULPD Z5, Z6, Z6
	VADDPD.BCST nlc<>+248(SB), Z6, Z6
	VMULPD Z5, Z6, Z6
	VADDPD.BCST nlc<>+256(SB), Z6, Z6
	VMULPD Z5, Z6, Z6
	VADDPD.BCST nlc<>+264(SB), Z6, Z6
	VMULPD Z5, Z6, Z6
	VADDPD.BCST nlc<>+272(SB), Z6, Z6
	VMULPD Z5, Z6, Z6
	VADDPD.BCST nlc<>+280(SB), Z6, Z6
	VMULPD.BCST nlc<>+288(SB), Z5, Z7
	VADDPD.BCST nlc<>+296(SB), Z7, Z7
	VMULPD Z5, Z7, Z7
	VADDPD.BCST nlc<>+304(SB), Z7, Z7
	VMULPD Z5, Z7, Z7
	VADDPD.BCST nlc<>+312(SB), Z7, Z7
	VMULPD Z5, Z7, Z7
	VADDPD.BCST nlc<>+320(SB), Z7, Z7
	VMULPD Z5, Z7, Z7
	VADDPD.BCST nlc<>+328(SB), Z7, Z7
	VMULPD Z5, Z7, Z7
	VADDPD.BCST nlc<>+104(SB), Z7, Z7
	VDIVPD Z7, Z6, Z6
	VBROADCASTSD nlc<>+336(SB), Z11
	VSUBPD Z6, Z11, Z11
	// Erfc, 1.25 ≤ X < 28: Exp(−z·z − 0.5625)·Exp((z − X)(z + X) + R/S)/X
	VMULPD Z1, Z1, Z5
	VBROADCASTSD nlc<>+104(SB), Z6
	VDIVPD Z5, Z6, Z5
	VMULPD.BCST nlc<>+344(SB), Z5, Z6
	VADDPD.BCST nlc<>+352(SB), Z6, Z6
	VMULPD Z5, Z6, Z6
	VADDPD.BCST nlc<>+360(SB), Z6, Z6
	VMULPD Z5, Z6, Z6
	VADDPD.BCST nlc<>+368(SB), Z6, Z6
	VMULPD Z5, Z6, Z6
	VADDPD.BCST nlc<>+376(SB), Z6, Z6
	VMULPD Z5, Z6, Z6
	VADDPD.BCST nlc<>+384(SB), Z6, Z6
	VMULPD Z5, Z6, Z6
	VADDPD.BCST nlc<>+392(SB), Z6, Z6
	VMULPD Z5, Z6, Z6
	VADDPD.BCST nlc<>+400(SB), Z6, Z6
	VMULPD.BCST nlc<>+408(SB), Z5, Z7
	VADDPD.BCST nlc<>+416(SB), Z7, Z7
	VMULPD Z5, Z7, Z7
	VADDPD.BCST nlc<>+424(SB), Z7, Z7
	VMULPD Z5, Z7, Z7
	VADDPD.BCST nlc<>+432(SB), Z7, Z7
	VMULPD Z5, Z7, Z7
	VADDPD.BCST nlc<>+440(SB), Z7, Z7
	VMULPD Z5, Z7, Z7
	VADDPD.BCST nlc<>+448(SB), Z7, Z7
	VMULPD Z5, Z7, Z7
	VADDPD.BCST nlc<>+456(SB), Z7, Z7
	VMULPD Z5, Z7, Z7
	VADDPD.BCST nlc<>+464(SB), Z7, Z7
	VMULPD Z5, Z7, Z7
	VADDPD.BCST nlc<>+104(SB), Z7, Z7
	VMULPD.BCST nlc<>+472(SB), Z5, Z8
	VADDPD.BCST nlc<>+480(SB), Z8, Z8
	VMULPD Z5, Z8, Z8
	VADDPD.BCST nlc<>+488(SB), Z8, Z8
	VMULPD Z5, Z8, Z8
	VADDPD.BCST nlc<>+496(SB), Z8, Z8
	VMULPD Z5, Z8, Z8
	VADDPD.BCST nlc<>+504(SB), Z8, Z8
	VMULPD Z5, Z8, Z8
	VADDPD.BCST nlc<>+512(SB), Z8, Z8
	VMULPD Z5, Z8, Z8
	VADDPD.BCST nlc<>+520(SB), Z8, Z8
	VMULPD.BCST nlc<>+528(SB), Z5, Z9
	VADDPD.BCST nlc<>+536(SB), Z9, Z9
	VMULPD Z5, Z9, Z9
	VADDPD.BCST nlc<>+544(SB), Z9, Z9
	VMULPD Z5, Z9, Z9
	VADDPD.BCST nlc<>+552(SB), Z9, Z9
	VMULPD Z5, Z9, Z9
	VADDPD.BCST nlc<>+560(SB), Z9, Z9
	VMULPD Z5, Z9, Z9
	VADDPD.BCST nlc<>+568(SB), Z9, Z9
	VMULPD Z5, Z9, Z9
	VADDPD.BCST nlc<>+576(SB), Z9, Z9
	VMULPD Z5, Z9, Z9
	VADDPD.BCST nlc<>+104(SB), Z9, Z9
	VCMPPD.BCST $1, nlc<>+584(SB), Z1, K1
	VMOVAPD Z6, K1, Z8
	VMOVAPD Z7, K1, Z9
	VDIVPD Z9, Z8, Z8
	VPANDQ.BCST nlc<>+592(SB), Z1, Z12
	VSUBPD Z1, Z12, Z13
	VADDPD Z1, Z12, Z14
	VMULPD Z14, Z13, Z13
	VADDPD Z8, Z13, Z13
	VPXORQ.BCST nlc<>+8(SB), Z12, Z14
	VMULPD Z12, Z14, Z14
	VSUBPD.BCST nlc<>+600(SB), Z14, Z14
	EXP_AVX512(nlc, Z14, Z15, Z20, Y21, Z22)
	EXP_AVX512(nlc, Z13, Z16, Z23, Y24, Z25)
	VMULPD Z16, Z15, Z15
	VDIVPD Z1, Z15, Z15
	// the range of X picks the value
	VCMPPD.BCST $1, nlc<>+608(SB), Z1, K1
	VMOVAPD Z11, K1, Z15
	VCMPPD.BCST $1, nlc<>+616(SB), Z1, K1
	VMOVAPD Z10, K1, Z15
	// (0.5·Erfc(X))·(−c) + density
	VMULPD.BCST nlc<>+16(SB), Z15, Z15
	VMULPD Z2, Z15, Z15
	VADDPD Z4, Z15, Z15
	VMOVUPD Z15, (DI)
	ADDQ $64, SI
	ADDQ $64, DI
	SUBQ $8, CX
	JNZ  loop
	VZEROUPPER
	RET
