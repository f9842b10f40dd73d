// R ← Exp(X) in each of 8 lanes: math.Exp's operations on its fused
// multiply–add path (math/exp_amd64.s), in their order, for the arguments
// its callers allow (no overflow or underflow handling). tab is a constant
// table holding math/exp_amd64.s's constants as float64 bits at offsets
// 16–120 (see sigmoid_amd64.s's sgc); T and S are clobbered, and IY is the
// Y register whose integer parts VPMOVSXDQ widens into S.
#define EXP_AVX512(tab, X, R, T, IY, S) \
	VMULPD.BCST tab<>+24(SB), X, T; \
	VCVTPD2DQ T, IY; \
	VCVTDQ2PD IY, T; \
	VMOVAPD X, R; \
	VFNMADD231PD.BCST tab<>+32(SB), T, R; \
	VFNMADD231PD.BCST tab<>+40(SB), T, R; \
	VMULPD.BCST tab<>+48(SB), R, R; \
	VBROADCASTSD tab<>+56(SB), T; \
	VFMADD213PD.BCST tab<>+64(SB), R, T; \
	VFMADD213PD.BCST tab<>+72(SB), R, T; \
	VFMADD213PD.BCST tab<>+80(SB), R, T; \
	VFMADD213PD.BCST tab<>+88(SB), R, T; \
	VFMADD213PD.BCST tab<>+96(SB), R, T; \
	VFMADD213PD.BCST tab<>+16(SB), R, T; \
	VFMADD213PD.BCST tab<>+104(SB), R, T; \
	VMULPD T, R, R; \
	VADDPD.BCST tab<>+112(SB), R, T; \
	VMULPD T, R, R; \
	VADDPD.BCST tab<>+112(SB), R, T; \
	VMULPD T, R, R; \
	VADDPD.BCST tab<>+112(SB), R, T; \
	VMULPD T, R, R; \
	VADDPD.BCST tab<>+112(SB), R, T; \
	VFMADD213PD.BCST tab<>+104(SB), T, R; \
	VPMOVSXDQ IY, S; \
	VPADDQ.BCST tab<>+120(SB), S, S; \
	VPSLLQ $52, S, S; \
	VMULPD S, R, R

// EXP_DATA(tab) writes the constants EXP_AVX512 reads into the first 128
// bytes of tab, 8 bytes each: sqrt2, signbit, half, LOG2E, LN2U, LN2L,
// c0625, e8, e7, e6, e5, e4, e3, one, two, bias (math/exp_amd64.s's, as
// float64 bits, with √2, the sign bit and ½ that the callers use too).
#define EXP_DATA(tab) \
	DATA tab<>+0(SB)/8, $0x3ff6a09e667f3bcd; \
	DATA tab<>+8(SB)/8, $0x8000000000000000; \
	DATA tab<>+16(SB)/8, $0x3fe0000000000000; \
	DATA tab<>+24(SB)/8, $0x3ff71547652b82fe; \
	DATA tab<>+32(SB)/8, $0x3fe62e42fefa3000; \
	DATA tab<>+40(SB)/8, $0x3d53de6af278ece6; \
	DATA tab<>+48(SB)/8, $0x3fb0000000000000; \
	DATA tab<>+56(SB)/8, $0x3efa01a01a01a01a; \
	DATA tab<>+64(SB)/8, $0x3f2a01a01a01a01a; \
	DATA tab<>+72(SB)/8, $0x3f56c16c16c16c17; \
	DATA tab<>+80(SB)/8, $0x3f81111111111111; \
	DATA tab<>+88(SB)/8, $0x3fa5555555555555; \
	DATA tab<>+96(SB)/8, $0x3fc5555555555555; \
	DATA tab<>+104(SB)/8, $0x3ff0000000000000; \
	DATA tab<>+112(SB)/8, $0x4000000000000000; \
	DATA tab<>+120(SB)/8, $0x00000000000003ff
