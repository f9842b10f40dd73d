# Writes the reference .npy files of internal/npy's tests with NumPy
# (Debian's python3-numpy 1.24.2: /usr/bin/python3 gen.py in this folder).
# The values are small integers and halves, exact in float32 and float64.
import numpy as np
from numpy.lib import format as npf

x = (np.arange(24).reshape(2, 3, 4) - 7.5) / 2
for dt in ("<f4", "<f8"):
    np.save(f"x{dt[1:]}.npy", x.astype(dt))  # version 1.0, as np.save writes it
    for v in ((2, 0), (3, 0)):
        with open(f"x{dt[1:]}-v{v[0]}.npy", "wb") as f:
            npf.write_array(f, x.astype(dt), version=v)
np.save("utility.npy", np.arange(6, dtype="<f8").reshape(2, 3))
np.save("vector.npy", np.array([1.5, -2], dtype="<f4"))
np.save("scalar.npy", np.float64(3.25))
np.save("empty.npy", np.zeros((0, 3, 4), dtype="<f4"))
# Refused by the reader, each with a message saying what to do.
np.save("fortran.npy", np.asfortranarray(x.astype("<f4")))
np.save("bigendian.npy", x.astype(">f4"))
np.save("int64.npy", np.arange(24, dtype="<i8").reshape(2, 3, 4))
np.save("float16.npy", x.astype("<f2"))
