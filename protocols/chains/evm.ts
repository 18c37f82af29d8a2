/**
 * Public facts of the Ethereum chain both sides name: the mainnet Tether USD (ERC-20) contract,
 * the casino's default USDT contract and the address at which the local sandbox chain installs its
 * test token (so one contract address is watched everywhere).
 */
export const MAINNET_USDT_CONTRACT = "0xdAC17F958D2ee523a2206206994597C13D831ec7" as const
