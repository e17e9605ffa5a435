import torch
t = torch.tensor(2**63)
