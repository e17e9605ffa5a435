import torch
t = torch.tensor(10**1000)
