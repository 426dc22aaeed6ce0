/* notplugin.c -- a shared object that is not a plugin: no entry symbol. */
int notplugin_answer(void);

int notplugin_answer(void)
{
    return 42;
}
