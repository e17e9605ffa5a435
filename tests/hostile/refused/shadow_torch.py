import torch
torch = 5
w = torch.tensor(1.0)
