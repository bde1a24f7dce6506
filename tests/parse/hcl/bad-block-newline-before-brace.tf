block "x"
{
}
