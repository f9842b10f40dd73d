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
