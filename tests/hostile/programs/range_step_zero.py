import torch
for _ in range(0, 10, 0):
    pass
