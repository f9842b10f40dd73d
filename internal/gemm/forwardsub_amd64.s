// Hand-written (AVX and FMA; AVX-512F): forwardRowAVX and
// forwardRowAVX512, one row of ForwardSub on 4 (8) columns per vector: the
// chain of VFMADD231PD over the earlier rows in
// increasing order (the operations of math.FMA(l_k, w_k, v), operands in
// the places the compiler gives them), then VDIVPD by −L_kk (DIVSD's
// correctly rounded quotient lane by lane). Two vectors per step, so that
// the divisions of neighbouring vectors overlap.

//go:build amd64

#include "textflag.h"

// func forwardRowAVX(dst, w *float64, ldw int, l *float64, k, nv int, d float64)
TEXT ·forwardRowAVX(SB), NOSPLIT, $0-56
	MOVQ         dst+0(FP), DI
	MOVQ         w+8(FP), SI
	MOVQ         ldw+16(FP), DX
	SHLQ         $3, DX           // bytes per row of w
	MOVQ         l+24(FP), R8
	MOVQ         k+32(FP), CX
	MOVQ         nv+40(FP), BX
	VBROADCASTSD d+48(FP), Y15

	CMPQ BX, $2
	JLT  single

pair:
	VMOVUPD (DI), Y0
	VMOVUPD 32(DI), Y1
	MOVQ    SI, R9
	XORQ    R10, R10
	TESTQ   CX, CX
	JZ      pairdiv

pairchain:
	VBROADCASTSD (R8)(R10*8), Y2
	VFMADD231PD  (R9), Y2, Y0
	VFMADD231PD  32(R9), Y2, Y1
	ADDQ         DX, R9
	INCQ         R10
	CMPQ         R10, CX
	JLT          pairchain

pairdiv:
	VDIVPD  Y15, Y0, Y0
	VDIVPD  Y15, Y1, Y1
	VMOVUPD Y0, (DI)
	VMOVUPD Y1, 32(DI)
	ADDQ    $64, DI
	ADDQ    $64, SI
	SUBQ    $2, BX
	CMPQ    BX, $2
	JGE     pair

single:
	TESTQ BX, BX
	JZ    done
	VMOVUPD (DI), Y0
	MOVQ    SI, R9
	XORQ    R10, R10
	TESTQ   CX, CX
	JZ      singlediv

singlechain:
	VBROADCASTSD (R8)(R10*8), Y2
	VFMADD231PD  (R9), Y2, Y0
	ADDQ         DX, R9
	INCQ         R10
	CMPQ         R10, CX
	JLT          singlechain

singlediv:
	VDIVPD  Y15, Y0, Y0
	VMOVUPD Y0, (DI)

done:
	VZEROUPPER
	RET

// func forwardRowAVX512(dst, w *float64, ldw int, l *float64, k, nv int, d float64)
TEXT ·forwardRowAVX512(SB), NOSPLIT, $0-56
	MOVQ         dst+0(FP), DI
	MOVQ         w+8(FP), SI
	MOVQ         ldw+16(FP), DX
	SHLQ         $3, DX
	MOVQ         l+24(FP), R8
	MOVQ         k+32(FP), CX
	MOVQ         nv+40(FP), BX
	VBROADCASTSD d+48(FP), Z15

	CMPQ BX, $2
	JLT  single512

pair512:
	VMOVUPD (DI), Z0
	VMOVUPD 64(DI), Z1
	MOVQ    SI, R9
	XORQ    R10, R10
	TESTQ   CX, CX
	JZ      pairdiv512

pairchain512:
	VBROADCASTSD (R8)(R10*8), Z2
	VFMADD231PD  (R9), Z2, Z0
	VFMADD231PD  64(R9), Z2, Z1
	ADDQ         DX, R9
	INCQ         R10
	CMPQ         R10, CX
	JLT          pairchain512

pairdiv512:
	VDIVPD  Z15, Z0, Z0
	VDIVPD  Z15, Z1, Z1
	VMOVUPD Z0, (DI)
	VMOVUPD Z1, 64(DI)
	ADDQ    $128, DI
	ADDQ    $128, SI
	SUBQ    $2, BX
	CMPQ    BX, $2
	JGE     pair512

single512:
	TESTQ BX, BX
	JZ    done512
	VMOVUPD (DI), Z0
	MOVQ    SI, R9
	XORQ    R10, R10
	TESTQ   CX, CX
	JZ      singlediv512

singlechain512:
	VBROADCASTSD (R8)(R10*8), Z2
	VFMADD231PD  (R9), Z2, Z0
	ADDQ         DX, R9
	INCQ         R10
	CMPQ         R10, CX
	JLT          singlechain512

singlediv512:
	VDIVPD  Z15, Z0, Z0
	VMOVUPD Z0, (DI)

done512:
	VZEROUPPER
	RET
