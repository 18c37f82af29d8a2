/**
 * PUBLIC TEST KEYS, kept apart from the launcher so configuration can name them without loading it.
 */
/**
 * anvil's well-known dev accounts (from the mnemonic "test test … junk"), printed
 * by every anvil and Hardhat node and in their docs. They hold ETH only on local dev chains; never
 * use them anywhere real. #0 funds the sandbox (faucet, USDT owner), #1 is the sandbox hot wallet.
 */
export const anvilTestAccounts = {
  faucet: {
    address: "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266",
    privateKey: "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80",
  },
  hotWallet: {
    address: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
    privateKey: "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d",
  },
} as const
