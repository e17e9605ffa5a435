import torch
w = torch.tensor(3., requires_grad=True)
y = w.clamp(10**1000, 1)
