# Writes testdata/numpy-pool, a pool directory as the README's snippet writes
# one, with NumPy (Debian's python3-numpy 1.24.2: /usr/bin/python3
# numpy_pool.py in this folder). Features: 3 prompts x 2 responses x 4 dims,
# float32, value (c*8 + a*4 + j) / 4; utilities float64 c - a.
import os
import numpy as np

os.makedirs("numpy-pool", exist_ok=True)
emb = (np.arange(3 * 2 * 4).reshape(3, 2, 4) / 4).astype(np.float32)
prompt_ids = ["p1", "p2", "p3"]
np.save("numpy-pool/features.npy", emb)
with open("numpy-pool/contexts.txt", "w") as f:
    f.write("\n".join(prompt_ids) + "\n")
with open("numpy-pool/arms.txt", "w") as f:
    f.write("\n".join(f"r{i + 1}" for i in range(emb.shape[1])) + "\n")
np.save("numpy-pool/utility.npy", np.subtract.outer(np.arange(3.0), np.arange(2.0)))
