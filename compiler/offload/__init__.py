"""GPU offload: slice @kernel functions into a device module, compile them to PTX
(per-kernel or all-kernel flow), validate with ptxas; see docs/offload.md."""
