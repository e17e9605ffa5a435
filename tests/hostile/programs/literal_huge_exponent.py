import torch
x = 1e99999999
print(x)
