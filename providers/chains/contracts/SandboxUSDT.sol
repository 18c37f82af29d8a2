// SPDX-License-Identifier: MIT
// A plain ERC-20 for the LOCAL sandbox chain only (anvil): 6 decimals like Tether USD, standard
// Transfer/Approval events, and a mint only the owner may call (the sandbox faucet and the hot
// wallet's funding). The sandbox installs its runtime code AT the mainnet USDT address, so the
// casino's EVM code reads the same contract address in the sandbox as in production.
//
// Storage layout matters: the constructor never runs when the code is installed with
// anvil_setCode, so the sandbox writes `owner` into its slot itself (the slot is taken from the
// compiler's storage layout kept in SandboxUSDT.json, not assumed).
pragma solidity 0.8.37;

contract SandboxUSDT {
    string public constant name = "Tether USD (sandbox)";
    string public constant symbol = "USDT";
    uint8 public constant decimals = 6;

    address public owner;
    uint256 public totalSupply;
    mapping(address => uint256) public balanceOf;
    mapping(address => mapping(address => uint256)) public allowance;

    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);

    constructor() {
        owner = msg.sender;
    }

    function mint(address to, uint256 value) external returns (bool) {
        require(msg.sender == owner, "SandboxUSDT: only the owner mints");
        require(to != address(0), "SandboxUSDT: mint to the zero address");
        totalSupply += value;
        balanceOf[to] += value;
        emit Transfer(address(0), to, value);
        return true;
    }

    function transfer(address to, uint256 value) external returns (bool) {
        _transfer(msg.sender, to, value);
        return true;
    }

    function approve(address spender, uint256 value) external returns (bool) {
        allowance[msg.sender][spender] = value;
        emit Approval(msg.sender, spender, value);
        return true;
    }

    function transferFrom(address from, address to, uint256 value) external returns (bool) {
        uint256 allowed = allowance[from][msg.sender];
        require(allowed >= value, "SandboxUSDT: allowance exceeded");
        if (allowed != type(uint256).max) {
            allowance[from][msg.sender] = allowed - value;
        }
        _transfer(from, to, value);
        return true;
    }

    function _transfer(address from, address to, uint256 value) internal {
        require(to != address(0), "SandboxUSDT: transfer to the zero address");
        uint256 balance = balanceOf[from];
        require(balance >= value, "SandboxUSDT: balance too low");
        balanceOf[from] = balance - value;
        balanceOf[to] += value;
        emit Transfer(from, to, value);
    }
}
